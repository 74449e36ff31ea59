"""The console's Schemas page: subjects, versions, schema text and compatibility from the broker's
Schema Registry, through the console's JSON API and in a real browser (chromium, as
test_console_browser.py; that part is skipped without chromium)."""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request

import pytest
import requests

from kwire.testing import Broker

pytestmark = pytest.mark.timeout(120)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"
ADDRESS = {"type": "record", "name": "Address", "fields": [{"name": "city", "type": "string"}]}
PERSON = {"type": "record", "name": "Person", "fields": [{"name": "home", "type": "Address"}]}


def get(url: str):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def broker(tmp_path):
    with Broker(data_dir=tmp_path, console_port=0, schema_registry_port=0) as b:
        sr = b.schema_registry_url
        requests.put(f"{sr}/config/person-value", json={"compatibility": "FULL"}).raise_for_status()
        for schema in (ADDRESS, {**ADDRESS, "fields": ADDRESS["fields"] + [
                {"name": "zip", "type": "string", "default": ""}]}):
            requests.post(f"{sr}/subjects/address/versions", json={"schema": json.dumps(schema)}).raise_for_status()
        requests.post(f"{sr}/subjects/person-value/versions", json={
            "schema": json.dumps(PERSON),
            "references": [{"name": "Address", "subject": "address", "version": 1}]}).raise_for_status()
        host, port = b.server.console.addresses[0]
        yield b, f"http://{host}:{port}"


def test_console_schema_api(broker, tmp_path):
    _, console = broker
    code, d = get(console + "/api/schemas")
    assert code == 200 and d["compatibility"] == "BACKWARD"
    assert [(s["subject"], s["version"], s["id"], s["type"], s["compatibility"]) for s in d["subjects"]] == [
        ("address", 2, 2, "AVRO", "BACKWARD"), ("person-value", 1, 3, "AVRO", "FULL")]
    code, d = get(console + "/api/schemas/person-value")
    assert code == 200 and d["compatibility"] == "FULL"
    (v,) = d["versions"]
    assert v["references"] == [{"name": "Address", "subject": "address", "version": 1}]
    assert json.loads(v["schema"]) == PERSON
    code, d = get(console + "/api/schemas/nobody")
    assert code == 404 and d["error"] == "SUBJECT_NOT_FOUND"
    # a console without a registry says so
    with Broker(data_dir=tmp_path / "other", console_port=0) as plain:
        host, port = plain.server.console.addresses[0]
        code, d = get(f"http://{host}:{port}/api/schemas")
        assert code == 503 and d["error"] == "SCHEMA_REGISTRY_UNAVAILABLE"


@pytest.mark.skipif(not CHROMIUM or not os.path.exists(CHROMEDRIVER),
                    reason="needs Debian's chromium and chromium-driver (scripts/setup-test-env.sh)")
def test_schemas_page_in_a_browser(broker):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from selenium.common.exceptions import StaleElementReferenceException

    _, console = broker
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)

    def settled(fn):
        """fn(driver) retried while the page's live refresh replaces the elements it reads."""
        def attempt(d):
            try:
                return fn(d)
            except StaleElementReferenceException:
                return False
        return WebDriverWait(driver, 30).until(attempt)

    try:
        driver.get(console + "/#/")
        settled(lambda d: d.find_element(By.ID, "nav-schemas").click() or True)
        settled(lambda d: [td.text for td in d.find_elements(
            By.CSS_SELECTOR, '#schemas tr[data-subject="address"] td')] == ["address", "AVRO", "2", "2", "BACKWARD"])
        settled(lambda d: d.find_element(By.LINK_TEXT, "person-value").click() or True)
        settled(lambda d: d.find_element(By.ID, "subject-compatibility").text == "FULL")
        text = settled(lambda d: d.find_element(By.CSS_SELECTOR, "#content pre.json").text)
        assert json.loads(text) == PERSON
        # the reference links to its subject's page, which shows both versions
        settled(lambda d: d.find_element(By.LINK_TEXT, "address").click() or True)
        settled(lambda d: len(d.find_elements(By.CSS_SELECTOR, "h2.schema-version")) == 2)
    finally:
        driver.quit()
