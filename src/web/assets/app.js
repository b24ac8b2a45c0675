// The board page of `harness serve`. No library, nothing fetched but this server's /api/.
"use strict";

const board = document.getElementById("board");
const cells = Array.from(board.querySelectorAll("input.cell"));
const marks = Array.from(board.querySelectorAll(".marks"));
const statusEl = document.getElementById("status");
let puzzle = board.dataset.puzzle || ".".repeat(81);
let solution = null;

function say(text, kind) {
  statusEl.textContent = text;
  statusEl.className = kind || "";
}

async function api(path, body) {
  const res = await fetch("/api/" + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function peers(i) {
  const r = Math.floor(i / 9), c = i % 9, out = [];
  for (let j = 0; j < 81; j++) {
    if (j === i) continue;
    const r2 = Math.floor(j / 9), c2 = j % 9;
    if (r2 === r || c2 === c ||
        (Math.floor(r2 / 3) === Math.floor(r / 3) && Math.floor(c2 / 3) === Math.floor(c / 3))) {
      out.push(j);
    }
  }
  return out;
}
const PEERS = cells.map((_, i) => peers(i));

function boardText() {
  return cells.map((el) => (/^[1-9]$/.test(el.value) ? el.value : ".")).join("");
}

function refresh() {
  const v = cells.map((el) => el.value);
  cells.forEach((el, i) => {
    const bad = /^[1-9]$/.test(v[i]) && PEERS[i].some((j) => v[j] === v[i]);
    el.classList.toggle("conflict", bad);
    if (v[i]) marks[i].textContent = "";
  });
}

function clearMarks() {
  marks.forEach((m) => { m.textContent = ""; });
}

function load(p, origin) {
  puzzle = p;
  solution = null;
  clearHint();
  cells.forEach((el, i) => {
    const ch = p[i];
    const given = ch >= "1" && ch <= "9";
    el.value = given ? ch : "";
    el.readOnly = given;
    el.classList.toggle("given", given);
    el.classList.remove("solved", "wrong", "conflict");
  });
  board.dataset.puzzle = p;
  clearMarks();
  refresh();
  const n = [...p].filter((ch) => ch >= "1" && ch <= "9").length;
  say(`${origin}: ${n} givens.`);
}

function setCell(i, value) {
  const el = cells[i];
  if (el.readOnly) return;
  clearHint();
  el.value = value;
  el.classList.remove("solved", "wrong");
  refresh();
}

cells.forEach((el, i) => {
  el.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) {
      const j = i + moves[e.key];
      if (j >= 0 && j < 81) cells[j].focus();
      e.preventDefault();
    } else if (/^[1-9]$/.test(e.key)) {
      setCell(i, e.key);
      e.preventDefault();
    } else if (["Backspace", "Delete", "0", ".", " "].includes(e.key)) {
      setCell(i, "");
      e.preventDefault();
    } else if (e.key.length === 1) {
      e.preventDefault();
    }
  });
  // Paste, drag or any other way a value gets in: keep one digit 1-9.
  el.addEventListener("input", () => {
    if (el.readOnly) return;
    const m = el.value.match(/[1-9]/g);
    el.value = m ? m[m.length - 1] : "";
    el.classList.remove("solved", "wrong");
    refresh();
  });
  el.addEventListener("change", refresh);
});

async function ensureSolution() {
  if (solution) return solution;
  const r = await api("solve", { puzzle });
  if (r.status !== "solved") throw new Error(`the puzzle has no solution (${r.status})`);
  solution = r.solution;
  return solution;
}

document.getElementById("new").addEventListener("click", async () => {
  const source = document.querySelector("input[name=source]:checked").value;
  const body = { source };
  if (source === "generator") {
    if (!document.getElementById("minimal").checked) {
      body.givens = parseInt(document.getElementById("givens").value, 10);
    }
  } else {
    body.dataset = document.getElementById("dataset").value;
  }
  say("generating...");
  try {
    const r = await api("generate", body);
    load(r.puzzle, r.origin);
    solution = r.solution;
  } catch (e) {
    say(e.message, "error");
  }
});

document.getElementById("check").addEventListener("click", async () => {
  try {
    const sol = await ensureSolution();
    let wrong = 0, empty = 0;
    cells.forEach((el, i) => {
      const bad = el.value !== "" && el.value !== sol[i];
      el.classList.toggle("wrong", bad);
      if (bad) wrong++;
      if (el.value === "") empty++;
    });
    if (wrong === 0 && empty === 0) say("Solved: every cell is right.", "ok");
    else say(`${wrong} wrong digit(s), ${empty} empty cell(s).`, wrong ? "error" : "");
  } catch (e) {
    say(e.message, "error");
  }
});

document.getElementById("candidates").addEventListener("click", async () => {
  try {
    const r = await api("candidates", { puzzle: boardText() });
    r.candidates.forEach((c, i) => {
      marks[i].innerHTML = "";
      if (cells[i].value) return;
      for (let d = 1; d <= 9; d++) {
        const s = document.createElement("span");
        s.textContent = c.includes(String(d)) ? String(d) : "";
        marks[i].appendChild(s);
      }
    });
    const stuck = r.contradiction ? ` Contradiction: ${r.contradiction}.` : "";
    say(`Candidates by ${r.method}: ${r.deductions} deduction(s).${stuck}`, stuck ? "error" : "");
  } catch (e) {
    say(e.message, "error");
  }
});

function clearHint() {
  cells.forEach((el) => el.parentElement.classList.remove("hint-cell"));
}

// The next step on the board: its cells shaded, the pencil marks it reasons on drawn, the
// candidates that prove it in blue (a chain's or colouring's, else the pattern's digits in its
// cells), what it eliminates struck through in red, a placement green.
async function showHint() {
  clearHint();
  try {
    const r = await api("hint", { puzzle: boardText() });
    if (r.done) {
      say("The board is full.", "ok");
      return;
    }
    const key = (list) => new Set(list.map((c) => c.cell * 10 + c.digit));
    const proof = key(r.candidates.concat(r.fins));
    if (r.candidates.length === 0) {
      r.cells.forEach((i) => r.digits.forEach((d) => proof.add(i * 10 + d)));
    }
    const elim = key(r.eliminations);
    const place = key(r.placements);
    r.marks.forEach((m, i) => {
      marks[i].innerHTML = "";
      if (cells[i].value) return;
      for (let d = 1; d <= 9; d++) {
        const s = document.createElement("span");
        const k = i * 10 + d;
        s.textContent = m.includes(String(d)) ? String(d) : "";
        if (place.has(k)) s.className = "hint-place";
        else if (elim.has(k)) s.className = "hint-elim";
        else if (proof.has(k)) s.className = "hint-key";
        marks[i].appendChild(s);
      }
    });
    r.cells.forEach((i) => cells[i].parentElement.classList.add("hint-cell"));
    say(`Hint (${r.level}, cost ${r.cost}): ${r.text}`);
  } catch (e) {
    say(e.message, "error");
  }
}

document.getElementById("hint").addEventListener("click", showHint);

document.getElementById("clear").addEventListener("click", () => {
  cells.forEach((el) => {
    if (!el.readOnly) el.value = "";
    el.classList.remove("solved", "wrong");
  });
  clearMarks();
  refresh();
  say("Entries cleared.");
});

document.getElementById("solve").addEventListener("click", async () => {
  const solver = document.getElementById("solver").value;
  say(`solving with ${solver}...`);
  try {
    const r = await api("solve", { puzzle, solver });
    const s = r.stats;
    const effort = `${s.nodes} nodes, ${s.guesses} guesses, ${s.backtracks} backtracks, ${s.propagations} propagations`;
    const ms = (r.time_us / 1000).toFixed(3);
    if (r.status !== "solved") {
      say(`${r.solver}: ${r.status} after ${ms} ms (${effort}).`, "error");
      return;
    }
    solution = r.solution;
    cells.forEach((el, i) => {
      if (el.readOnly) return;
      el.value = r.solution[i];
      el.classList.add("solved");
      el.classList.remove("wrong");
    });
    clearMarks();
    refresh();
    say(`Solved by ${r.solver} in ${ms} ms: ${effort}; checker: ${r.check}.`, "ok");
  } catch (e) {
    say(e.message, "error");
  }
});

document.getElementById("load").addEventListener("click", async () => {
  const text = document.getElementById("puzzle-text").value.trim();
  try {
    const r = await api("count", { puzzle: text, limit: 2 });
    load(text.replace(/[0_\-*]/g, "."), "loaded");
    const n = r.complete ? (r.solutions >= 2 ? "two or more solutions" : `${r.solutions} solution(s)`) : "count unfinished";
    say(`${statusEl.textContent} ${n}.`, r.unique ? "" : "error");
  } catch (e) {
    say(e.message, "error");
  }
});

const solverSelect = document.getElementById("solver");
function showSolver() {
  const o = solverSelect.selectedOptions[0];
  document.getElementById("solver-info").textContent = o ? o.title : "";
}
solverSelect.addEventListener("change", showSolver);
showSolver();
refresh();
// `?hint=1` in the address: show the first hint at once (for screenshots and links).
if (new URLSearchParams(location.search).get("hint") === "1") showHint();
