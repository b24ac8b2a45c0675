"""Tests of the sudoku_harness package: every solution is checked by the harness's checker or
compared with a solution a shipped dataset states; counts agree between two solvers."""

import csv
import json
import pathlib

import pytest

import sudoku_harness as sh

DATASETS = pathlib.Path(__file__).resolve().parents[2] / "datasets"


def shipped(name):
    """(puzzle, solution) pairs of a shipped CSV dataset."""
    with open(DATASETS / name, newline="") as f:
        return [(r["puzzle"], r["solution"]) for r in csv.DictReader(f)]


SEED = dict(zip(["example", "hard"], shipped("seed.csv")))
HARD, HARD_SOLUTION = SEED["hard"]


def backtracking(puzzle):
    """Plain Python backtracking over 9x9 lines: the empty cell with the fewest candidates
    first, each candidate tried in turn (the kind of solver a user races)."""
    cells = [0 if c in ".0" else int(c) for c in puzzle]
    peers = [
        {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
        | {(r - r % 3 + k // 3) * 9 + c - c % 3 + k % 3 for k in range(9)}
        for r, c in (divmod(i, 9) for i in range(81))
    ]

    def search():
        best, best_options = None, None
        for i in range(81):
            if cells[i] == 0:
                options = set(range(1, 10)) - {cells[p] for p in peers[i]}
                if best is None or len(options) < len(best_options):
                    best, best_options = i, options
                    if len(options) <= 1:
                        break
        if best is None:
            return True
        for d in best_options:
            cells[best] = d
            if search():
                return True
        cells[best] = 0
        return False

    return "".join(map(str, cells)) if search() else None


def test_solve_the_seed_hard_case_gives_its_stated_solution():
    answer = sh.solve(HARD)
    assert answer == HARD_SOLUTION
    assert sh.check(HARD, answer)


def test_every_built_in_solver_of_9x9_solves_the_hard_case():
    for s in sh.solvers():
        shapes = s["shapes"]
        if shapes.startswith("up to "):
            side = int(shapes[len("up to "):].split("x")[0])
            assert side >= 9, shapes
        else:
            assert shapes in ("9x9", "any"), shapes
        assert sh.solve(HARD, solver=s["name"], timeout_ms=20000) == HARD_SOLUTION, s["name"]


def test_a_list_of_ints_comes_back_as_a_list():
    ints = [0 if c == "." else int(c) for c in HARD]
    answer = sh.solve(ints)
    assert answer == [int(c) for c in HARD_SOLUTION]


def test_block_form_and_csv_read_like_the_line():
    block = "\n".join(" ".join(HARD[r * 9:(r + 1) * 9]) for r in range(9))
    assert sh.solve(block) == HARD_SOLUTION
    assert sh.solve("name,puzzle\nhard," + HARD + "\n") == HARD_SOLUTION


def test_other_shapes_are_solved_and_checked():
    lines = [l for l in (DATASETS / "sudoku-4x4.txt").read_text().splitlines()
             if l and not l.startswith("#")]
    puzzle, stated = lines[0].split()
    answer = sh.solve(puzzle, shape="4x4")
    assert answer == stated
    assert sh.check(puzzle, answer, shape="4x4")
    sixteen = (DATASETS / "sudoku-16x16.txt").read_text().splitlines()
    p16 = next(l for l in sixteen if l and not l.startswith("#")).split()[0]
    a16 = sh.solve(p16, timeout_ms=20000)
    assert len(a16) == 256 and sh.check(p16, a16)


def test_counts_agree_between_two_solvers():
    for solver in ("hybrid", "dlx"):
        assert sh.count(HARD, solver=solver) == 1
        assert sh.count("." * 81, limit=5, solver=solver) == 5
    # Two givens removed from a one-solution puzzle often leave several: the count says which.
    assert sh.count("." * 9 + HARD[9:], solver="hybrid") == sh.count("." * 9 + HARD[9:], solver="dlx")


def test_no_solution_is_none():
    # Two 1s can only go in r1c1's row's remaining cells... a contradiction the givens hide:
    # r1 needs a 9 but every free cell of r1 sees a 9.
    puzzle = "12345678." + "........9" + "." * 63
    assert sh.count(puzzle) == 0
    assert sh.solve(puzzle) is None


def test_why_wrong_names_the_cell_or_unit():
    assert sh.why_wrong(HARD, HARD_SOLUTION) is None
    changed_given = "1" + HARD_SOLUTION[1:] if HARD_SOLUTION[0] != "1" else "2" + HARD_SOLUTION[1:]
    assert HARD[0] == "."  # r1c1 is not a given: the answer breaks units instead
    why = sh.why_wrong(HARD, changed_given)
    assert why is not None and ("lacks" in why)
    given_at = HARD.index("6")  # r1c4
    wrong_given = HARD_SOLUTION[:given_at] + "5" + HARD_SOLUTION[given_at + 1:]
    assert "the given at r1c4 was changed" in sh.why_wrong(HARD, wrong_given)
    unfilled = HARD_SOLUTION[:80] + "."
    assert "r9c9 is not filled" in sh.why_wrong(HARD, unfilled)
    assert not sh.check(HARD, unfilled)


@pytest.mark.parametrize(
    "puzzle, words",
    [
        ("55" + "." * 79, ["r1c1", "r1c2", "5"]),
        ("..x" + "." * 78, ["'x'", "r1c3"]),
        ("." * 80, ["80 characters"]),
        ([10] + [0] * 80, ["10", "r1c1"]),
        ([0] * 80, ["80 values"]),
    ],
)
def test_bad_input_raises_value_error_naming_the_cell(puzzle, words):
    for f in (sh.solve, sh.count, sh.rate, sh.hint):
        with pytest.raises(ValueError) as e:
            f(puzzle)
        for w in words:
            assert w in str(e.value), (f, str(e.value))


def test_bad_input_in_a_batch_names_its_index():
    with pytest.raises(ValueError, match=r"puzzle 1: .*r1c1"):
        sh.solve_many([HARD, "55" + "." * 79])
    with pytest.raises(TypeError):
        sh.solve(3.5)
    with pytest.raises(ValueError, match="unknown solver"):
        sh.solve(HARD, solver="no-such-solver")


def test_solve_many_checks_every_answer_on_any_thread_count():
    pairs = shipped("named-hard.csv") + shipped("seed.csv") + shipped("clues22-200.csv")[:50]
    puzzles = [p for p, _ in pairs]
    one = sh.solve_many(puzzles)
    assert one == [s for _, s in pairs]
    assert sh.solve_many(puzzles, threads=2) == one
    assert sh.solve_many(puzzles, solver="dlx", threads=0) == one


def test_generate_is_seeded_and_makes_one_solution_puzzles():
    a = sh.generate("puzzle", seed=7)
    assert a == sh.generate("puzzle", seed=7)
    assert a != sh.generate("puzzle", seed=8)
    assert sh.count(a, solver="hybrid") == 1 and sh.count(a, solver="dlx") == 1
    batch = sh.generate_many(4, "puzzle", seed=7, clues=30)
    assert batch == sh.generate_many(4, "puzzle", seed=7, clues=30, threads=2)
    assert batch[0] != a
    for p in batch:
        assert 81 - p.count(".") == 30
        assert sh.count(p, solver="hybrid") == 1 and sh.count(p, solver="dlx") == 1
    grid = sh.generate("grid", seed=3)
    assert "." not in grid and sh.check("." * 81, grid)
    six = sh.generate("puzzle", seed=1, shape="6x6/2x3")
    assert len(six) == 36 and sh.count(six, shape="6x6/2x3") == 1


def test_qwh_has_its_holes_and_a_completion():
    q = sh.generate("qwh", seed=5, order=10, holes=0.42)
    assert len(q) == 100 and q.count(".") == 42
    answer = sh.solve(q, shape="10x10/latin", timeout_ms=20000)
    assert sh.check(q, answer, shape="10x10/latin")


def test_rate_matches_the_shipped_levels():
    with open(DATASETS / "level-easy.csv", newline="") as f:
        rows = list(csv.DictReader(f))[:3]
    for r in rows:
        got = sh.rate(r["puzzle"])
        assert got["level"] == r["level"] and got["score"] == int(r["score"])
        assert got["techniques"]
    many = sh.rate_many([r["puzzle"] for r in rows] + ["." * 81], threads=2)
    assert [m["score"] for m in many[:3]] == [int(r["score"]) for r in rows]
    assert "error" in many[3]


def test_hint_describes_a_step_and_refuses_several_solutions():
    text = sh.hint(HARD)
    assert text.startswith("next step:")
    assert sh.hint(HARD_SOLUTION) is None
    with pytest.raises(ValueError, match="more than one solution"):
        sh.hint("." * 81)


def test_race_puts_a_python_solver_beside_hybrid_and_dlx():
    rows = sh.race([backtracking, "hybrid", "dlx"], "seed", timeout_ms=60000)
    assert len(rows) == 6
    assert {r["solver"] for r in rows} == {"backtracking", "hybrid", "dlx"}
    for r in rows:
        assert r["status"] == "solved" and r["correct"] is True, r
        assert r["micros"] > 0
    mine = {r["puzzle"]: r["solution"] for r in rows if r["solver"] == "backtracking"}
    assert mine == {"seed-example": shipped("seed.csv")[0][1], "hard-17s": HARD_SOLUTION}


def test_a_python_solver_that_raises_or_returns_garbage_does_not_stop_the_race():
    def raises(p):
        raise KeyError("boom")

    def garbage(p):
        return "hello"

    def wrong(p):
        return "1" * 81

    def not_a_grid(p):
        return 42

    rows = sh.race(
        ["hybrid", raises, garbage, ("wrong-digits", wrong), not_a_grid],
        [HARD, SEED["example"][0]],
        timeout_ms=5000,
    )
    by = {}
    for r in rows:
        by.setdefault(r["solver"], []).append(r)
    assert all(r["correct"] is True for r in by["hybrid"])
    assert all(r["status"] == "error" and "KeyError" in r["error"] for r in by["raises"])
    assert all(r["status"] == "error" and "not a 9x9 grid" in r["error"] for r in by["garbage"])
    assert all(r["correct"] is False and "given" in r["error"] for r in by["wrong-digits"])
    assert all(r["status"] == "error" and "int" in r["error"] for r in by["not_a_grid"])


def test_race_writes_the_run_folder_of_harness_run(tmp_path):
    out = tmp_path / "run"
    rows = sh.race([("bt", backtracking), "hybrid"], "seed", timeout_ms=60000, out=out,
                   report=False)
    with open(out / "results.csv", newline="") as f:
        saved = list(csv.DictReader(f))
    assert [(r["solver"], r["puzzle"], r["status"]) for r in saved] == [
        (r["solver"], r["puzzle"], r["status"]) for r in rows
    ]
    info = json.loads((out / "run.json").read_text())
    kinds = {d["name"]: d["kind"] for d in info["solver_details"]}
    assert kinds == {"bt": "python", "hybrid": "builtin"}
    assert info["complete"] is True
    assert (out / "summary.csv").exists()


def test_race_on_every_core_checks_every_answer():
    pairs = shipped("clues22-200.csv")[:40]
    rows = sh.race([backtracking, "hybrid"], [p for p, _ in pairs], threads=None, name="c22")
    assert len(rows) == 80 and {r["dataset"] for r in rows} == {"c22"}
    assert all(r["correct"] is True for r in rows)
    stated = dict(zip((str(i + 1) for i in range(40)), (s for _, s in pairs)))
    assert all(r["solution"] == stated[r["puzzle"]] for r in rows)


def test_race_refuses_two_solvers_of_one_name():
    with pytest.raises(ValueError, match="named"):
        sh.race([backtracking, backtracking], "seed")
