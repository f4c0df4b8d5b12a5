"""Make the screenshots of the summary view's tutorial (docs/tutorials/img/view-*.png) from the Shakespeare sample:
``graphsr view`` writes the page, headless Chromium (through Selenium and chromedriver) opens it, and each shot is
taken after the clicks and choices the tutorial describes.

    python tools/view_screenshots.py [--out docs/tutorials/img]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "tutorials" / "img"))
    a = ap.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from graphsr.data import sample

    plays = sample("shakespeare")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "plays.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "view",
                str(plays["collection"]),
                "--qrels",
                str(plays["qrels"]),
                "--run",
                str(plays["runs"][2]),
                "--run",
                str(plays["runs"][3]),
                "-o",
                str(page),
            ],
            check=True,
        )
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        for flag in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1300,760",
            "--disable-background-networking",
            "--hide-scrollbars",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        try:
            driver.get(page.as_uri())
            WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
            driver.save_screenshot(str(out / "view-pi.png"))
            find = driver.find_element("id", "find")
            find.send_keys("/play/text/act/scene")
            driver.find_element("css selector", "#hits div").click()  # the first hit: the scene partition
            Select(driver.find_element("id", "colour")).select_by_value("density")
            driver.save_screenshot(str(out / "view-scene-scenes.png"))
            Select(driver.find_element("id", "run")).select_by_value("speeches")
            Select(driver.find_element("id", "topic")).select_by_value("2")
            driver.save_screenshot(str(out / "view-scene-speeches-topic2.png"))
            Select(driver.find_element("id", "topic")).select_by_value("")
            Select(driver.find_element("id", "colour")).select_by_value("compare")
            Select(driver.find_element("id", "run")).select_by_value("scenes")
            Select(driver.find_element("id", "other")).select_by_value("speeches")
            Select(driver.find_element("id", "filter")).select_by_value("a")
            driver.save_screenshot(str(out / "view-compare.png"))
        finally:
            driver.quit()
    for name in ("view-pi.png", "view-scene-scenes.png", "view-scene-speeches-topic2.png", "view-compare.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
