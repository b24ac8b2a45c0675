// The board page of `harness serve`. No library, nothing fetched but this server's /board and
// /api/. The board's table is drawn by the server (GET /board), for every shape.
"use strict";

const play = document.getElementById("play");
const statusEl = document.getElementById("status");
const shapeSelect = document.getElementById("shape");
const solverSelect = document.getElementById("solver");
// Symbols of one-character cells: 1-9, then A = 10 ... Z = 35.
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let board, cells, marks, shape, side, boxRows, boxCols, PEERS;
let puzzle = "";
let solution = null;

// A count and its noun, plural unless the count is 1 (as the command line says it).
function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

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

const isClassic = () => shape === "9x9";
// The symbol a key or character stands for on this board ("" if none).
function symbolOf(ch) {
  const k = SYMBOLS.indexOf(String(ch).toUpperCase());
  return ch.length === 1 && k >= 0 && k < side ? SYMBOLS[k] : "";
}

function peers(i) {
  const r = Math.floor(i / side), c = i % side, out = [];
  for (let j = 0; j < side * side; j++) {
    if (j === i) continue;
    const r2 = Math.floor(j / side), c2 = j % side;
    const sameBox = boxRows > 0 &&
      Math.floor(r2 / boxRows) === Math.floor(r / boxRows) &&
      Math.floor(c2 / boxCols) === Math.floor(c / boxCols);
    if (r2 === r || c2 === c || sameBox) out.push(j);
  }
  return out;
}

// Takes the board the server drew: its cells, shape and units; the menus follow its shape.
function bindBoard() {
  board = document.getElementById("board");
  cells = Array.from(board.querySelectorAll("input.cell"));
  marks = Array.from(board.querySelectorAll(".marks"));
  shape = board.dataset.shape || "9x9";
  side = parseInt(board.dataset.side || "9", 10);
  boxRows = parseInt(board.dataset.boxRows || "3", 10);
  boxCols = parseInt(board.dataset.boxCols || "3", 10);
  puzzle = board.dataset.puzzle || ".".repeat(side * side);
  PEERS = cells.map((_, i) => peers(i));
  followShape();
}

// The menus of this shape: the picker, the solvers that take it, the 9x9-only features.
function followShape() {
  if (![...shapeSelect.options].some((o) => o.value === shape)) {
    shapeSelect.add(new Option(shape, shape));
  }
  shapeSelect.value = shape;
  for (const o of solverSelect.options) {
    const takes = isClassic() || o.dataset.shapes === "any";
    o.disabled = !takes;
    o.hidden = !takes;
  }
  const chosen = solverSelect.selectedOptions[0];
  if (!chosen || chosen.disabled) {
    const fallback = isClassic()
      ? [...solverSelect.options].find((o) => o.defaultSelected)
      : [...solverSelect.options].find((o) => o.value === solverSelect.dataset.shapedDefault);
    if (fallback) solverSelect.value = fallback.value;
  }
  showSolver();
  const hint = document.getElementById("hint");
  hint.disabled = !isClassic();
  hint.title = isClassic() ? "" : "hints are given on 9x9 grids only";
  // The generator's range of givens at this shape, as the server drew it with the board.
  const givens = document.getElementById("givens");
  givens.min = board.dataset.givensMin;
  givens.max = board.dataset.givensMax;
  givens.disabled = !isClassic();
  document.getElementById("givens-note").textContent =
    isClassic() ? "" : "(9x9 only)";
  const boxes = boxRows > 0 ? `${boxRows}x${boxCols} boxes` : "a Latin square: no boxes";
  const hidden = [...solverSelect.options].filter((o) => o.disabled).map((o) => o.value);
  document.getElementById("shape-info").textContent = isClassic() ? "" :
    `${side}x${side}, ${boxes}, symbols 1-${SYMBOLS[side - 1]}. Hints: 9x9 only (the logic ` +
    `rater's techniques are 9x9 ones). Candidates by peer elimination.` +
    (hidden.length ? ` Not offered (9x9 only): ${hidden.join(", ")}.` : "");
  const range = side > 9 ? `1-9 or A-${SYMBOLS[side - 1]}` : `1-${side}`;
  const units = boxRows > 0 ? "row, column or box" : "row or column";
  document.getElementById("help").textContent =
    `Type ${range} in a cell; Backspace, Delete, 0 or . clears it; arrow keys move. ` +
    `Red: a ${side > 9 ? "symbol" : "digit"} repeated in a ${units}.`;
}

function boardText() {
  return cells.map((el) => symbolOf(el.value) || ".").join("");
}

function refresh() {
  const v = cells.map((el) => el.value);
  cells.forEach((el, i) => {
    const bad = symbolOf(v[i]) !== "" && PEERS[i].some((j) => v[j] === v[i]);
    el.classList.toggle("conflict", bad);
    if (v[i]) marks[i].textContent = "";
  });
}

function clearMarks() {
  marks.forEach((m) => { m.textContent = ""; });
}

// Draws puzzle `p` (line form; null for an empty board) of shape `s` through the server.
async function load(p, origin, s) {
  const q = new URLSearchParams({ shape: s });
  if (p !== null) q.set("puzzle", p);
  const res = await fetch("/board?" + q);
  const html = await res.text();
  if (!res.ok) throw new Error(JSON.parse(html).error || res.statusText);
  board.outerHTML = html;
  solution = null;
  bindBoard();
  refresh();
  const n = cells.filter((el) => el.readOnly).length;
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

const cellIndex = (e) => (cells ? cells.indexOf(e.target) : -1);
play.addEventListener("keydown", (e) => {
  const i = cellIndex(e);
  if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
  const moves = { ArrowUp: -side, ArrowDown: side, ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in moves) {
    const j = i + moves[e.key];
    if (j >= 0 && j < cells.length) cells[j].focus();
    e.preventDefault();
  } else if (symbolOf(e.key)) {
    setCell(i, symbolOf(e.key));
    e.preventDefault();
  } else if (["Backspace", "Delete", "0", ".", " "].includes(e.key)) {
    setCell(i, "");
    e.preventDefault();
  } else if (e.key.length === 1) {
    e.preventDefault();
  }
});
// Paste, drag or any other way a value gets in: keep one symbol of the board.
play.addEventListener("input", (e) => {
  const i = cellIndex(e);
  if (i < 0 || cells[i].readOnly) return;
  const el = cells[i];
  const found = [...el.value].map(symbolOf).filter((ch) => ch);
  el.value = found.length ? found[found.length - 1] : "";
  el.classList.remove("solved", "wrong");
  refresh();
});
play.addEventListener("change", (e) => { if (cellIndex(e) >= 0) refresh(); });

// The solution, from the puzzle's source or solved by the chosen solver.
async function ensureSolution() {
  if (solution) return solution;
  const r = await api("solve", { puzzle, shape, solver: solverSelect.value });
  if (r.status === "timeout") {
    throw new Error(`${r.solver} found no solution within its time budget; try another solver`);
  }
  if (r.status !== "solved") throw new Error(`the puzzle has no solution (${r.status})`);
  solution = r.solution;
  return solution;
}

document.getElementById("new").addEventListener("click", async () => {
  const source = document.querySelector("input[name=source]:checked").value;
  const body = { source };
  if (source === "generator") {
    body.shape = shape;
    if (isClassic() && !document.getElementById("minimal").checked) {
      body.givens = parseInt(document.getElementById("givens").value, 10);
    }
  } else {
    body.dataset = document.getElementById("dataset").value;
    if (!body.dataset) body.shape = shape;
  }
  say("generating...");
  try {
    const r = await api("generate", body);
    await load(r.puzzle, r.origin, r.shape || "9x9");
    solution = r.solution;
  } catch (e) {
    say(e.message, "error");
  }
});

shapeSelect.addEventListener("change", async () => {
  try {
    await load(null, `empty ${shapeSelect.value} board`, shapeSelect.value);
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
    else say(`${plural(wrong, "wrong digit")}, ${plural(empty, "empty cell")}.`, wrong ? "error" : "");
  } catch (e) {
    say(e.message, "error");
  }
});

// Pencil marks: `list(i)` gives the marks of cell i; `cls(i, d)` a class for symbol d's mark.
function drawMarks(list, cls) {
  list.forEach((c, i) => {
    marks[i].innerHTML = "";
    if (cells[i].value) return;
    for (let d = 1; d <= side; d++) {
      const s = document.createElement("span");
      s.textContent = c.includes(SYMBOLS[d - 1]) ? SYMBOLS[d - 1] : "";
      const k = cls ? cls(i, d) : "";
      if (k) s.className = k;
      marks[i].appendChild(s);
    }
  });
}

document.getElementById("candidates").addEventListener("click", async () => {
  try {
    const r = await api("candidates", { puzzle: boardText(), shape });
    drawMarks(r.candidates);
    const stuck = r.contradiction ? ` Contradiction: ${r.contradiction}.` : "";
    say(`Candidates by ${r.method}: ${plural(r.deductions, "deduction")}.${stuck}`, stuck ? "error" : "");
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
  if (!isClassic()) {
    say(`Hints are given on 9x9 grids only (the logic rater's techniques are 9x9 ones).`, "error");
    return;
  }
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
    drawMarks(r.marks, (i, d) => {
      const k = i * 10 + d;
      if (place.has(k)) return "hint-place";
      if (elim.has(k)) return "hint-elim";
      return proof.has(k) ? "hint-key" : "";
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
  const solver = solverSelect.value;
  say(`solving with ${solver}...`);
  try {
    const r = await api("solve", { puzzle, shape, solver });
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

// The shape of a pasted puzzle: the picker's when its size fits, else the one Sudoku shape of
// the picker of that size, else the picker's (the server then says what is wrong).
function pastedShape(text) {
  const n = /\s/.test(text) ? text.split(/\s+/).length : [...text].length;
  const fits = (s) => parseInt(s, 10) ** 2 === n;
  if (fits(shapeSelect.value)) return shapeSelect.value;
  const sudoku = [...shapeSelect.options].map((o) => o.value)
    .filter((s) => fits(s) && !s.endsWith("/latin"));
  return sudoku.length === 1 ? sudoku[0] : shapeSelect.value;
}

document.getElementById("load").addEventListener("click", async () => {
  const text = document.getElementById("puzzle-text").value.trim();
  try {
    const s = pastedShape(text);
    const r = await api("count", { puzzle: text, shape: s, limit: 2 });
    await load(text, "loaded", r.shape || "9x9");
    const n = r.complete ? (r.solutions >= 2 ? "two or more solutions" : plural(r.solutions, "solution")) : "count unfinished";
    say(`${statusEl.textContent} ${n}.`, r.unique ? "" : "error");
  } catch (e) {
    say(e.message, "error");
  }
});

function showSolver() {
  const o = solverSelect.selectedOptions[0];
  document.getElementById("solver-info").textContent = o ? o.title : "";
}
solverSelect.addEventListener("change", showSolver);
bindBoard();
refresh();
// `?hint=1` in the address: show the first hint at once (for screenshots and links).
if (new URLSearchParams(location.search).get("hint") === "1") showHint();
