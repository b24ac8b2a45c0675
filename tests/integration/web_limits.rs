//! The web server under load, on 127.0.0.1 only: solve work gated (503 with `Retry-After`
//! beyond the slots and the queue), solves cancelled when their client disconnects or the server
//! shuts down, a header timeout and a connection cap, 405/413 answers with a JSON body, and a
//! bounded load test on the real binary (`harness serve`), whose CPU is read from
//! `/proc/PID/stat`.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use harness::web::server::{self, Gate, Limits};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// No solution, found only after filling rows 1-8: `backtracking` never finishes it.
const ENDLESS: &str =
    "........9...............................................................12345678.";
/// seed-example of datasets/seed.csv and its verified solution.
const SEED: &str =
    "7....4....4...59..8......2...6.9...4.1.....3.2...8.5...5......1..37...8....2....6";
const SEED_SOLUTION: &str =
    "729364158341825967865971423536192874918547632274683519652438791493716285187259346";

/// A `POST /api/solve` of ENDLESS with backtracking and a 60 s budget: a solve that only a
/// cancellation ends early.
fn hard_solve() -> Vec<u8> {
    post(
        "/api/solve",
        &json!({"puzzle": ENDLESS, "solver": "backtracking", "timeout_ms": 60000}),
    )
}

/// The bytes of an HTTP/1.1 POST of `body` as JSON.
fn post(path: &str, body: &Value) -> Vec<u8> {
    let body = body.to_string();
    format!(
        "POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n").into_bytes()
}

/// An HTTP response: status, headers (lower-case names), body.
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Reads one response (headers, then `content-length` bytes of body) from `s`.
fn read_response(s: &mut TcpStream) -> std::io::Result<Response> {
    let mut r = BufReader::new(s);
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    Ok(Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Connects, sends `req`, reads the response.
fn request(addr: SocketAddr, req: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(req).unwrap();
    read_response(&mut s).unwrap()
}

/// Polls `cond` every 10 ms for at most `limit`; true if it held.
fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let t0 = Instant::now();
    while t0.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    cond()
}

/// A server in this process (its own tokio runtime on a thread), stopped on drop.
struct InProcess {
    addr: SocketAddr,
    gate: Arc<Gate>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl InProcess {
    fn start(limits: Limits) -> InProcess {
        let gate = Arc::new(Gate::new(limits));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let g = gate.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let listener = server::bind(0).await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                server::serve_with(listener, g, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
            rt.shutdown_timeout(Duration::from_secs(5));
        });
        InProcess {
            addr: addr_rx.recv().unwrap(),
            gate,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn small_limits() -> Limits {
    Limits {
        solve_slots: 1,
        queue: 0,
        ..Limits::default()
    }
}

/// The router in-process (no socket): status, headers, JSON body.
fn oneshot(req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let res = server::router().oneshot(req).await.unwrap();
        let (parts, body) = res.into_parts();
        let bytes = axum::body::to_bytes(body, 1 << 20).await.unwrap();
        (
            parts.status,
            parts.headers,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    })
}

#[test]
fn a_method_not_allowed_gets_405_with_a_json_error_and_allow() {
    for (method, uri, allow) in [
        ("GET", "/api/solve", "POST"),
        ("DELETE", "/api/count", "POST"),
        ("POST", "/api/info", "GET,HEAD"),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty())
            .unwrap();
        let (st, headers, v) = oneshot(req);
        assert_eq!(st, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}");
        assert_eq!(headers["allow"], allow, "{method} {uri}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(
            msg.contains(&format!("method {method}")),
            "{method} {uri}: {v}"
        );
    }
}

#[test]
fn a_body_over_the_limit_gets_413_with_a_json_error() {
    let limit = Limits::default().body_limit;
    let body = json!({ "puzzle": "1".repeat(limit) }).to_string();
    let req = Request::builder()
        .method("POST")
        .uri("/api/solve")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let (st, _, v) = oneshot(req);
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("bad request body"),
        "{v}"
    );
    // A bad body under the limit stays a 400.
    let req = Request::builder()
        .method("POST")
        .uri("/api/solve")
        .header("content-type", "application/json")
        .body(Body::from("{not json"))
        .unwrap();
    assert_eq!(oneshot(req).0, StatusCode::BAD_REQUEST);
}

/// A count limit above the server's pool of solutions is refused; within it, the count runs.
#[test]
fn counts_are_bounded_by_the_servers_pool_of_solutions() {
    let server = InProcess::start(Limits {
        count_solutions: 1000,
        ..Limits::default()
    });
    let r = request(
        server.addr,
        &post(
            "/api/count",
            &json!({"puzzle": SEED, "limit": 1001, "solver": "sat"}),
        ),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("above the 1000 solutions"), "{}", r.body);
    let r = request(
        server.addr,
        &post(
            "/api/count",
            &json!({"puzzle": SEED, "limit": 1000, "solver": "sat"}),
        ),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["solutions"], 1, "{}", r.body);
    assert_eq!(server.gate.running(), 0);
}

/// A client that goes away stops its solve: the slot is free again long before the solve's
/// 60 s budget, and the next hard solve is admitted.
#[test]
fn a_client_that_disconnects_cancels_its_solve() {
    let server = InProcess::start(small_limits());
    let mut a = TcpStream::connect(server.addr).unwrap();
    a.write_all(&hard_solve()).unwrap();
    assert!(
        eventually(Duration::from_secs(10), || server.gate.running() == 1),
        "the solve never started"
    );
    // The one slot is taken and there is no queue: a second solve is turned away at once.
    let r = request(server.addr, &hard_solve());
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(
        r.json()["error"].as_str().unwrap().contains("busy"),
        "{}",
        r.body
    );
    drop(a);
    assert!(
        eventually(Duration::from_secs(10), || server.gate.running() == 0),
        "the solve went on after its client left"
    );
    let r = request(server.addr, &post("/api/solve", &json!({"puzzle": SEED})));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["solution"], SEED_SOLUTION);
}

/// Half-sent headers are dropped after the header timeout; a connection beyond the cap is
/// answered 503 and closed; once the idle ones are gone, new clients are served.
#[test]
fn half_sent_headers_time_out_and_connections_are_capped() {
    let cap = 4;
    let server = InProcess::start(Limits {
        max_connections: cap,
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    });
    let mut held = Vec::new();
    for _ in 0..cap {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        // A whole request first: its answer proves the server holds this connection.
        s.write_all(&get("/api/info")).unwrap();
        assert_eq!(read_response(&mut s).unwrap().status, 200);
        // Then the start of a request that never ends.
        s.write_all(b"GET /api/info HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ")
            .unwrap();
        held.push(s);
    }
    let mut extra = TcpStream::connect(server.addr).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let r = read_response(&mut extra).expect("an answer to the connection over the cap");
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(r.body.contains("too many connections"), "{}", r.body);
    // Each held connection is closed by the server (read: end of file, an answer, or a reset),
    // well within the 30 s read timeout, which would fail the test.
    for mut s in held {
        let mut buf = [0u8; 512];
        let t0 = Instant::now();
        loop {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("the connection stayed open {:?}: {e}", t0.elapsed()),
            }
        }
    }
    assert!(eventually(Duration::from_secs(10), || {
        TcpStream::connect(server.addr)
            .and_then(|mut s| {
                s.set_read_timeout(Some(Duration::from_secs(10)))?;
                s.write_all(&get("/api/info"))?;
                read_response(&mut s)
            })
            .is_ok_and(|r| r.status == 200)
    }));
}

/// The headers of a `POST /api/solve` announcing `len` bytes of body.
fn body_announced(len: u64) -> Vec<u8> {
    format!(
        "POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         content-length: {len}\r\n\r\n"
    )
    .into_bytes()
}

/// Every server limit is a time limit too: a body sent a byte at a time gets 408 after the body
/// timeout and its connection is closed, freeing its place (so slow bodies cannot keep every
/// other client at 503); a `Content-Length` of 10 GB gets 413 before any byte of it is sent.
#[test]
fn slow_bodies_time_out_and_huge_ones_get_413_at_once() {
    let cap = 3;
    let server = InProcess::start(Limits {
        max_connections: cap,
        body_timeout: Duration::from_secs(1),
        ..Limits::default()
    });
    let mut held = Vec::new();
    for _ in 0..cap {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(&body_announced(60_000)).unwrap();
        s.write_all(b"{").unwrap();
        held.push(s);
    }
    for mut s in held {
        // One more byte now and then, as the slow client does; the answer comes anyway.
        let _ = s.write_all(b" ");
        let r = read_response(&mut s).expect("an answer to the slow body");
        assert_eq!(r.status, 408, "{}", r.body);
        assert!(r.body.contains("did not arrive within 1 s"), "{}", r.body);
        assert_eq!(r.header("connection"), Some("close"));
    }
    // The places are free again, and a huge body is refused from its headers alone.
    assert!(eventually(Duration::from_secs(10), || {
        TcpStream::connect(server.addr)
            .and_then(|mut s| {
                s.set_read_timeout(Some(Duration::from_secs(10)))?;
                s.write_all(&body_announced(10_000_000_000))?;
                read_response(&mut s)
            })
            .is_ok_and(|r| r.status == 413 && r.body.contains("limit of 65536 bytes"))
    }));
}

/// A shutdown answers the clients still sending their bodies with a 503 instead of waiting for
/// them.
#[test]
fn shutdown_answers_clients_still_sending_bodies() {
    let server = InProcess::start(Limits {
        body_timeout: Duration::from_secs(60),
        ..Limits::default()
    });
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(&body_announced(60_000)).unwrap();
        s.write_all(b"{").unwrap();
        held.push(s);
    }
    // Each connection's request is in: the info answer on a fresh one comes after them.
    assert_eq!(request(server.addr, &get("/api/info")).status, 200);
    server.gate.shut_down();
    for mut s in held {
        let r = read_response(&mut s).expect("an answer before the server closes");
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(r.body.contains("shutting down"), "{}", r.body);
    }
}

/// `harness serve --port 0` as a child; stopped (SIGKILL) on drop if still running.
struct Served {
    child: Child,
    addr: SocketAddr,
    /// Solve slots and queue places, from the line it prints.
    slots: usize,
    queue: usize,
}

impl Served {
    fn start() -> Served {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("harness"))
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // serving on http://127.0.0.1:PORT/ (Ctrl-C stops; N solves at once, M more queued, ...)
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let number_before = |what: &str| -> usize {
            let head = line.split(what).next().unwrap();
            head.rsplit(' ')
                .find_map(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("no {what:?} in {line:?}"))
        };
        Served {
            slots: number_before(" solves at once"),
            queue: number_before(" more queued"),
            child,
            addr,
        }
    }

    /// The server's CPU time so far (user + system), s, from /proc/PID/stat.
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // Fields after the command name (which may hold spaces) closed by ')'.
        let f: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
        // SAFETY: sysconf has no side effects.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        ticks / hz
    }

    fn load(&self) -> Value {
        request(self.addr, &get("/api/info")).json()["load"].clone()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn say(text: &str) {
    // Straight to the stderr handle: libtest captures the print macros of a passing test.
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// A body sent a byte at a time, as fast as the network takes it, costs the server about its
/// length in memory, not a read buffer (8 KiB) per byte: four clients each send 4,000 bytes of
/// their body one segment at a time (about 64 MB held before, for 16 KB of data).
#[test]
fn bodies_sent_a_byte_at_a_time_cost_their_length_in_memory() {
    let served = Served::start();
    let rss_kib = || -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", served.child.id()));
        status
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap()
    };
    // The first answer warms the server up (threads, buffers).
    assert_eq!(request(served.addr, &get("/api/info")).status, 200);
    let before = rss_kib();
    let mut held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(served.addr).unwrap();
            s.set_nodelay(true).unwrap();
            s.write_all(&body_announced(60_000)).unwrap();
            s
        })
        .collect();
    for _ in 0..4_000 {
        for s in &mut held {
            s.write_all(b" ").unwrap();
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let grown = rss_kib().saturating_sub(before);
    say(&format!(
        "RSS {before} KiB before, {grown} KiB more with 4 x 4,000 one-byte segments held"
    ));
    assert!(grown < 16 * 1024, "{grown} KiB more");
}

/// Shutdown (SIGINT) with hard solves in flight: each client gets a 503 and the server exits
/// in well under the solves' 60 s budget.
#[cfg(unix)]
#[test]
fn shutdown_cancels_the_solves_in_flight() {
    let mut served = Served::start();
    let n = 3;
    let mut clients = Vec::new();
    for _ in 0..n {
        let mut s = TcpStream::connect(served.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(&hard_solve()).unwrap();
        clients.push(s);
    }
    let want = n.min(served.slots + served.queue);
    assert!(
        eventually(Duration::from_secs(10), || served.load()["admitted"]
            == want),
        "the solves were not admitted: {}",
        served.load()
    );
    let t0 = Instant::now();
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(
        unsafe { libc::kill(served.child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    for mut c in clients.into_iter().take(want) {
        let r = read_response(&mut c).expect("an answer before the server exits");
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(r.body.contains("shutting down"), "{}", r.body);
    }
    let status = loop {
        if let Some(st) = served.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "still running 20 s after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    say(&format!(
        "shutdown with {want} hard solve(s) in flight: exited {:.2} s after SIGINT",
        t0.elapsed().as_secs_f64()
    ));
}

/// The load test: 200 concurrent hard solves (60 s budget each) whose clients drop after 0.5 s;
/// then a plain solve must be answered within 1 s of the drop and the server's CPU must be idle
/// (under 10% of one core over half a second) within 2 s. Bounded: 200 connections, at most
/// about 10 s.
#[cfg(target_os = "linux")]
#[test]
fn load_test_dropped_hard_solves_leave_the_server_responsive_and_idle() {
    const CLIENTS: usize = 200;
    let served = Served::start();
    let req = hard_solve();
    let mut clients = Vec::with_capacity(CLIENTS);
    let t_start = Instant::now();
    for _ in 0..CLIENTS {
        let mut s = TcpStream::connect(served.addr).unwrap();
        s.write_all(&req).unwrap();
        clients.push(s);
    }
    let sent_in = t_start.elapsed();
    std::thread::sleep(Duration::from_millis(500));
    // What came back within the half second: the 503s of the requests beyond slots + queue.
    let mut shed = 0;
    let mut retry_after = true;
    for s in &mut clients {
        s.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 1024];
        if let Ok(n) = s.read(&mut buf) {
            let head = String::from_utf8_lossy(&buf[..n]);
            if head.starts_with("HTTP/1.1 503") {
                shed += 1;
                retry_after &= head.to_ascii_lowercase().contains("retry-after: 1");
            }
        }
    }
    let cpu_at_drop = served.cpu_seconds();
    drop(clients);
    let t_drop = Instant::now();

    // A plain solve, answered within 1 s of the drop (a 503 while the cancelled solves release
    // their slots is retried).
    let mut tries = 0;
    let answered = loop {
        tries += 1;
        let r = request(served.addr, &post("/api/solve", &json!({"puzzle": SEED})));
        if r.status == 200 {
            assert_eq!(r.json()["solution"], SEED_SOLUTION);
            assert_eq!(r.json()["check"], "ok");
            break t_drop.elapsed();
        }
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(
            t_drop.elapsed() < Duration::from_secs(1),
            "still 503 after 1 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };

    // Time to idle: the start of the first half second in which the server used under 10% of a
    // core. Sampled for at most 5 s after the drop.
    let mut samples = vec![(Duration::ZERO, cpu_at_drop)];
    let idle = loop {
        std::thread::sleep(Duration::from_millis(50));
        let now = (t_drop.elapsed(), served.cpu_seconds());
        samples.push(now);
        let start = samples
            .iter()
            .find(|(t, c)| now.0 >= *t + Duration::from_millis(500) && now.1 - c < 0.05);
        if let Some((t, _)) = start {
            break Some(*t);
        }
        if now.0 > Duration::from_secs(5) {
            break None;
        }
    };
    let cpu_after = served.cpu_seconds() - cpu_at_drop;
    say(&format!(
        "load test: {CLIENTS} hard solves sent in {:.0} ms ({} solve slots, {} queue places); \
         {shed} answered 503 within 0.5 s; plain solve answered {:.0} ms after the drop \
         ({tries} tries); CPU idle {} after the drop; server CPU {:.2} s during the {:.1} s after \
         the drop",
        sent_in.as_secs_f64() * 1e3,
        served.slots,
        served.queue,
        answered.as_secs_f64() * 1e3,
        idle.map_or("never (5 s)".into(), |t| format!(
            "{:.0} ms",
            t.as_secs_f64() * 1e3
        )),
        cpu_after,
        t_drop.elapsed().as_secs_f64()
    ));
    assert!(
        answered < Duration::from_secs(1),
        "answered after {answered:?}"
    );
    let idle = idle.expect("the server's CPU never went idle: the dropped solves run on");
    assert!(idle <= Duration::from_secs(2), "idle only after {idle:?}");
    let admitted = served.slots + served.queue;
    if CLIENTS > admitted {
        // Each request beyond slots + queue is turned away at once; a loaded machine may be
        // slow to answer a few of them within the half second.
        assert!(
            shed >= (CLIENTS - admitted) / 2,
            "{shed} 503s for {CLIENTS} requests and {admitted} places"
        );
        assert!(shed <= CLIENTS - admitted.min(CLIENTS), "{shed} 503s");
        assert!(retry_after, "a 503 without Retry-After: 1");
    }
}

/// Generate requests have a budget and stop when their client goes: two 100x100 generate
/// requests whose clients leave after 1 s free both slots long before their 10 s budget, and a
/// solve right after is answered 200; a generate whose client waits is answered within its
/// budget, with the unique puzzle reached so far.
#[test]
fn abandoned_generate_requests_free_their_slots() {
    let server = InProcess::start(Limits {
        solve_slots: 2,
        queue: 0,
        ..Limits::default()
    });
    let generate = post("/api/generate", &json!({"shape": "100x100", "seed": 3}));
    let mut clients: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            s.write_all(&generate).unwrap();
            s
        })
        .collect();
    assert!(
        eventually(Duration::from_secs(10), || server.gate.running() == 2),
        "the generators never started"
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(server.gate.running(), 2, "still generating after 1 s");
    let left = Instant::now();
    clients.clear();
    assert!(
        eventually(Duration::from_secs(10), || server.gate.running() == 0),
        "the generators went on after their clients left"
    );
    say(&format!(
        "two abandoned 100x100 generate requests freed their slots {:.2} s after their clients \
         left (budget 10 s)",
        left.elapsed().as_secs_f64()
    ));
    let r = request(server.addr, &post("/api/solve", &json!({"puzzle": SEED})));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["solution"], SEED_SOLUTION);
    // A client that waits gets the puzzle reached within its budget.
    let t0 = Instant::now();
    let r = request(
        server.addr,
        &post(
            "/api/generate",
            &json!({"shape": "100x100", "seed": 3, "timeout_ms": 2000}),
        ),
    );
    let took = t0.elapsed();
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert!(
        v["origin"]
            .as_str()
            .unwrap()
            .contains("stopped by its time budget"),
        "{v}"
    );
    assert!(took < Duration::from_secs(8), "answered after {took:?}");
    say(&format!(
        "a 100x100 generate with a 2 s budget answered in {:.2} s",
        took.as_secs_f64()
    ));
    let (puzzle, solution) = (
        harness::input::format::read_puzzle(v["puzzle"].as_str().unwrap(), None).unwrap(),
        harness::input::format::read_puzzle(v["solution"].as_str().unwrap(), None).unwrap(),
    );
    assert_eq!(
        harness::verify::check_board(&puzzle.board, &solution.board, None),
        Ok(())
    );
    assert_eq!(server.gate.running(), 0);
}
