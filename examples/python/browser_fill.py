"""The browser case in Python: Selenium reads the board off `harness serve`'s page, our solver
fills it in, and the page's own "check" button judges it.

    pip install ./python selenium            # once, from the repository's root
    apt-get install chromium chromium-driver # a browser and its WebDriver
    python examples/python/browser_fill.py [--harness target/release/harness] [--puzzle LINE]

Starts `harness serve --port 0` (the URL it prints), opens the page in headless Chromium (on
the given puzzle, or the page's own), reads the 81 cells of `<table id="board">` (givens are
read-only inputs), solves the board with `sudoku_harness.solve` (checked by the harness's
checker), types the missing digits in, presses "check" and prints what the page says.
"""

import argparse
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.common.by import By

import sudoku_harness as sh

HARD = "...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8..."


def read_board(driver):
    """The board's cells (row-major, from their ids r1c1..r9c9) as one line, '.' empty."""
    cells = driver.find_elements(By.CSS_SELECTOR, "table#board input")
    if len(cells) != 81:
        raise SystemExit(f"expected 81 cells on the page, found {len(cells)}")
    by_id = {c.get_attribute("id"): c for c in cells}
    order = [by_id[f"r{r}c{c}"] for r in range(1, 10) for c in range(1, 10)]
    line = "".join((c.get_attribute("value") or ".")[:1] for c in order)
    return line, order


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--harness", default="target/release/harness")
    p.add_argument("--puzzle", default=HARD)
    p.add_argument("--show", action="store_true", help="a visible browser window")
    args = p.parse_args()

    server = subprocess.Popen([args.harness, "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = next(w for w in server.stdout.readline().split() if w.startswith("http"))
        options = webdriver.ChromeOptions()
        if not args.show:
            options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")
        driver = webdriver.Chrome(options=options)
        try:
            driver.get(f"{url.rstrip('/')}/?puzzle={args.puzzle}")
            line, cells = read_board(driver)
            print(f"read:   {line}")
            answer = sh.solve(line)
            if answer is None:
                raise SystemExit("the board has no solution")
            print(f"solved: {answer}")
            for cell, digit in zip(cells, answer):
                if not cell.get_attribute("value") and cell.get_attribute("readonly") is None:
                    cell.send_keys(digit)
            after, _ = read_board(driver)
            assert sh.check(line, after), sh.why_wrong(line, after)
            driver.find_element(By.ID, "check").click()
            print("page says:", driver.find_element(By.ID, "status").text)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
