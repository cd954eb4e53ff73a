"""The reproduction report (`report/index.html`) in a real browser.

A small report (`atmsim reproduce all --quick` with 0.05 s runs, the suite's shared
`quick_report`) is opened in headless Chromium
(Debian's `chromium` and `chromium-driver`, installed by `.ci/run`) driven by Selenium: every
figure must load (an image with a natural width), every link must resolve (a file that
exists, an anchor that exists), and the browser's console must stay free of errors. A
screenshot of the whole page is kept in `test-artifacts/report-index.png`.

Without the browser the test is skipped, except under CI (CI set), where it fails.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must run the browser test: .ci/run installs it)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install '.[test]')")
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver_path):
        _missing("chromium and chromedriver not found (apt-get install chromium chromium-driver)")
    assert chromium and driver_path
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--hide-scrollbars",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium Manager never tries to download a browser or driver.
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def report(quick_report) -> Path:
    assert quick_report.proc.returncode == 0, quick_report.proc.stderr
    return Path(quick_report.out) / "index.html"


def test_report_page_in_headless_chromium(browser, report: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(report.as_uri())
    browser.implicitly_wait(0)
    # get() can return while a long page's images still load ("interactive", seen once in CI):
    # wait for the load to finish, bounded, rather than read the state at one instant.
    WebDriverWait(browser, 60).until(lambda b: b.execute_script("return document.readyState") == "complete")
    ready = browser.execute_script("return document.readyState")
    assert ready == "complete"

    # Every figure: the image decoded with a real size.
    images = browser.execute_script(
        "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])"
    )
    assert len(images) >= 5, "the report should show the studies' figures"
    broken = [src for src, complete, width in images if not complete or width == 0]
    assert not broken, f"figures that did not load: {broken}"

    # Every link: a local file that exists (after the browser resolved it), or an anchor on the page.
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => [a.getAttribute('href'), a.href])"
    )
    assert links, "the report has links (figures, CSV tables)"
    ids = set(browser.execute_script("return Array.from(document.querySelectorAll('[id]')).map(e => e.id)"))
    unresolved = []
    for raw, resolved in links:
        url = urlparse(resolved)
        if raw.startswith("#"):
            if unquote(raw[1:]) not in ids:
                unresolved.append(raw)
        elif url.scheme == "file":
            if not Path(unquote(url.path)).is_file():
                unresolved.append(raw)
        else:
            unresolved.append(f"{raw} (not a local file: the report must work offline)")
    assert not unresolved, f"links that do not resolve: {unresolved}"

    # The console: no errors (failed loads are reported there too).
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, f"console errors: {errors}"

    # A screenshot of the whole page, kept for people to look at.
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(int(height), 30000))
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report-index.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
