#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the job array of docs/scaling-out.md:
# munged, slurmctld and slurmd (Debian's `munge` and `slurm-wlm`), everything they write under
# STATE_DIR (configuration, spool, logs, pid files, the munge socket), listening on 127.0.0.1
# only. Run as root (the daemons and the jobs run as the invoking user).
#
#   scripts/slurm-local.sh start STATE_DIR   # writes STATE_DIR/slurm.conf, starts, waits for the node
#   export SLURM_CONF=STATE_DIR/slurm.conf   # then sbatch, squeue, sinfo talk to this cluster
#   scripts/slurm-local.sh stop STATE_DIR    # stops the three daemons (by their pid files)
#
# Ports: SLURM_LOCAL_PORT (default 16817) for slurmctld, the next one for slurmd.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
port=${SLURM_LOCAL_PORT:-16817}

stop_pid() { # name pidfile
  local f=$2
  [ -f "$f" ] || return 0
  local pid
  pid=$(cat "$f" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "$1 ($pid) did not stop on SIGTERM: SIGKILL" >&2
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$f"
}

stop() {
  stop_pid slurmd "$dir/slurmd.pid"
  stop_pid slurmctld "$dir/slurmctld.pid"
  stop_pid munged "$dir/munge/munged.pid"
}

start() {
  if [ ${#dir} -gt 70 ]; then
    echo "$dir: too long a path for munge's socket (a Unix socket address holds 108 bytes); use a shorter STATE_DIR such as /tmp/slurm" >&2
    exit 1
  fi
  for b in munged slurmctld slurmd sinfo; do
    command -v "$b" >/dev/null || {
      echo "$b not found: apt-get install munge slurm-wlm" >&2
      exit 1
    }
  done
  stop # leftovers of an earlier start in the same folder
  mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool"
  chmod 700 "$dir/munge"
  # A key of our own, so the system's munge (if any) is never touched.
  [ -f "$dir/munge/munge.key" ] || head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed"

  local host user cpus
  host=$(hostname -s)
  user=$(id -un)
  cpus=$(nproc)
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh: one node, this machine, 127.0.0.1 only.
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdTimeout=60
NodeName=local-node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=local-node Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -c -f "$SLURM_CONF"
  slurmd -N local-node -f "$SLURM_CONF"
  # Up when the node is idle (at most 60 s).
  for _ in $(seq 1 120); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; then
      echo "slurm-local: node local-node idle ($cpus CPUs); export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.5
  done
  echo "slurm-local: the node did not come up in 60 s; logs:" >&2
  tail -n 20 "$dir/munge/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  sinfo -N -l >&2 || true
  stop
  exit 1
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
