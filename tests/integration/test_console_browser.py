"""The web console in a real browser (Debian's chromium + chromium-driver, driven by selenium).

A broker with the console on and real traffic (kafka-python producer, a
consumer group with committed offsets) is clicked through: cluster page,
topics list, topic detail (leader, replicas, ISR, offsets), record browser
(JSON pretty-printed, binary as hex, headers; from an offset), group page
(members, lag per partition, lag chart), creating a topic and deleting it
through the confirmation dialog, resetting offsets, an action on a missing
topic showing its error, and read-only mode. Every step saves a screenshot
(in ``$KWIRE_TEST_ARTIFACTS/console`` when set, else the test's tmp dir).

Skipped when chromium or chromedriver is missing (scripts/setup-test-env.sh
installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, OffsetAndMetadata, TopicPartition
from kafka.admin import NewTopic

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/lib/chromium/chromedriver"

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(not CHROMIUM or not os.path.exists(CHROMEDRIVER),
                       reason="needs Debian's chromium and chromium-driver (scripts/setup-test-env.sh)"),
]

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WAIT_S = 30


@pytest.fixture
def shots(tmp_path, request):
    root = os.environ.get("KWIRE_TEST_ARTIFACTS")
    d = Path(root) / "console" / request.node.name if root else tmp_path / "screenshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture
def browser(shots):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(WAIT_S)
    n = [0]

    def snap(name: str) -> Path:
        n[0] += 1
        path = shots / f"{n[0]:02d}-{name}.png"
        driver.save_screenshot(str(path))
        return path

    driver.snap = snap
    yield driver
    driver.quit()


def wait_text(driver, css: str, text: str):
    try:
        WebDriverWait(driver, WAIT_S).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    except Exception:
        if hasattr(driver, "snap"):
            driver.snap("FAILED-waiting-for-" + "".join(ch if ch.isalnum() else "-" for ch in text)[:40])
        raise
    return driver.find_element(By.CSS_SELECTOR, css)


def rows(driver, css: str) -> list[list[str]]:
    """The table's cells; read again when the page's refresh replaces the table mid-read."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(50):
        try:
            return [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                    for tr in driver.find_elements(By.CSS_SELECTOR, f"{css} tbody tr")]
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css}: the table kept being replaced while it was read")


def click(driver, by, value: str) -> None:
    """Find and click, again if the console re-rendered the element in between (its periodic
    refresh replaces the DOM nodes: the element found a moment ago is then stale)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def attempt(drv):
        try:
            drv.find_element(by, value).click()
            return True
        except StaleElementReferenceException:
            return False
    WebDriverWait(driver, WAIT_S).until(attempt)


def confirm(driver, name: str) -> None:
    WebDriverWait(driver, WAIT_S).until(EC.visibility_of_element_located((By.ID, "modal")))
    driver.snap("confirm-dialog")
    driver.find_element(By.ID, "modal-input").send_keys(name)
    click(driver, By.ID, "modal-ok")


@pytest.fixture
def live(make_broker, topic_name):
    b = make_broker(overrides={"console.port": "0"})
    admin = KafkaAdminClient(bootstrap_servers=b.bootstrap)
    admin.create_topics([NewTopic(topic_name, 2, 1)])
    admin.close()
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    for i in range(40):
        value = json.dumps({"order": i, "item": "book"}).encode() if i % 2 == 0 else bytes([0xde, 0xad, 0xbe, 0xef, i])
        producer.send(topic_name, key=f"k{i}".encode(), value=value, partition=i % 2,
                      headers=[("source", b"browser-test")])
    producer.flush()
    consumer = KafkaConsumer(bootstrap_servers=b.bootstrap, group_id="shop", enable_auto_commit=False)
    consumer.commit({TopicPartition(topic_name, 0): OffsetAndMetadata(5, None, -1),
                     TopicPartition(topic_name, 1): OffsetAndMetadata(20, None, -1)})
    consumer.close()
    host, port = b.server.console.addresses[0]
    yield b, f"http://{host}:{port}/", producer
    producer.close()


def test_click_through_the_console(live, browser, topic_name):
    b, url, producer = live
    d = browser
    d.get(url)
    wait_text(d, "#brokers tbody", b.bootstrap.rsplit(":", 1)[1])
    assert d.find_element(By.ID, "card-brokers").text == "1"
    d.snap("cluster")

    click(d, By.ID, "nav-topics")
    row = wait_text(d, "#topics", topic_name)
    d.snap("topics")
    row.find_element(By.LINK_TEXT, topic_name).click()
    wait_text(d, "#partitions tbody", "20")
    # partition, leader, replicas, ISR, start, end, messages
    assert [r[:7] for r in rows(d, "#partitions")] == [["0", "0", "0", "0", "0", "20", "20"],
                                                      ["1", "0", "0", "0", "0", "20", "20"]]
    d.snap("topic")

    click(d, By.ID, "browse")
    wait_text(d, "#records tbody", "book")
    d.snap("records-newest")
    d.find_element(By.ID, "rec-partition").clear()
    d.find_element(By.ID, "rec-partition").send_keys("1")
    Select(d.find_element(By.ID, "rec-mode")).select_by_value("offset")
    d.find_element(By.ID, "rec-at").send_keys("3")
    d.find_element(By.ID, "rec-limit").clear()
    d.find_element(By.ID, "rec-limit").send_keys("4")
    click(d, By.ID, "rec-go")
    wait_text(d, "#rec-range", "partition 1")
    recs = rows(d, "#records")
    assert [r[0] for r in recs] == ["3", "4", "5", "6"]
    # partition 1 holds the odd records: binary values, shown as hex
    assert "binary" in recs[0][3] and "de ad be ef 07" in recs[0][3]
    assert "source: browser-test" in recs[0][4]
    d.snap("records-binary-hex")
    d.find_element(By.ID, "rec-partition").clear()
    d.find_element(By.ID, "rec-partition").send_keys("0")
    click(d, By.ID, "rec-go")
    wait_text(d, "#rec-range", "partition 0")
    value = d.find_element(By.CSS_SELECTOR, "#records tbody tr td.value pre.json").text
    assert json.loads(value) == {"order": 6, "item": "book"} and "\n" in value
    Select(d.find_element(By.ID, "rec-format")).select_by_value("hex")
    wait_text(d, "#records tbody", "7b 22")  # '{"' as hex
    d.snap("records-json-as-hex")

    click(d, By.ID, "nav-groups")
    wait_text(d, "#groups", "shop")
    assert ["shop", "Empty", "classic", "0", "15"] in rows(d, "#groups")
    d.snap("groups")
    click(d, By.LINK_TEXT, "shop")
    wait_text(d, "#offsets tbody", topic_name)
    assert [r[1:5] for r in rows(d, "#offsets")] == [["0", "5", "20", "15"], ["1", "20", "20", "0"]]
    assert d.find_element(By.ID, "group-lag").text == "15"
    # live refresh: new records raise the lag shown, and the chart gains points
    for i in range(10):
        producer.send(topic_name, value=b"more", partition=0)
    producer.flush()
    wait_text(d, "#group-lag", "25")
    WebDriverWait(d, WAIT_S).until(lambda drv: int(drv.find_element(By.ID, "lag-chart").get_attribute("data-points")) >= 2)
    d.snap("group-lag-chart")

    # reset offsets behind the confirmation
    Select(d.find_element(By.ID, "reset-topic")).select_by_visible_text(topic_name)
    Select(d.find_element(By.ID, "reset-to")).select_by_value("latest")
    click(d, By.ID, "reset-button")
    confirm(d, "shop")
    wait_text(d, "#flash", "Offsets of shop reset")
    wait_text(d, "#group-lag", "0")
    d.snap("group-after-reset")


def test_create_delete_and_errors(live, browser, topic_name):
    b, url, _ = live
    d = browser
    d.get(url + "#/topics")
    WebDriverWait(d, WAIT_S).until(EC.presence_of_element_located((By.ID, "create-topic")))
    d.find_element(By.ID, "new-topic-name").send_keys("from-the-browser")
    d.find_element(By.ID, "new-topic-partitions").clear()
    d.find_element(By.ID, "new-topic-partitions").send_keys("4")
    click(d, By.ID, "create-topic-button")
    wait_text(d, "#flash", "Topic from-the-browser created")
    wait_text(d, "#topics", "from-the-browser")
    d.snap("topic-created")
    # the same name again: Kafka's error is shown
    d.find_element(By.ID, "new-topic-name").send_keys("from-the-browser")
    click(d, By.ID, "create-topic-button")
    wait_text(d, "#flash", "TOPIC_ALREADY_EXISTS")
    d.snap("create-error")

    d.get(url + "#/topic/from-the-browser")
    wait_text(d, "#partitions tbody", "3")
    WebDriverWait(d, WAIT_S).until(lambda drv: len(rows(drv, "#partitions")) == 4)
    click(d, By.ID, "delete-topic")
    # a wrong confirmation keeps the dialog open and deletes nothing
    WebDriverWait(d, WAIT_S).until(EC.visibility_of_element_located((By.ID, "modal")))
    d.find_element(By.ID, "modal-input").send_keys("wrong")
    click(d, By.ID, "modal-ok")
    wait_text(d, "#modal-hint", "Type exactly")
    d.find_element(By.ID, "modal-input").clear()
    d.find_element(By.ID, "modal-input").send_keys("from-the-browser")
    click(d, By.ID, "modal-ok")
    wait_text(d, "#flash", "Topic from-the-browser deleted")
    WebDriverWait(d, WAIT_S).until(lambda drv: "from-the-browser" not in drv.find_element(By.ID, "topics").text)
    d.snap("topic-deleted")

    # a missing topic: the page says so
    d.get(url + "#/topic/no-such-topic")
    wait_text(d, "#page-error", "UNKNOWN_TOPIC_OR_PARTITION")
    d.snap("missing-topic")
    d.get(url + "#/records/no-such-topic")
    wait_text(d, "#page-error", "UNKNOWN_TOPIC_OR_PARTITION")


def test_read_only_console_hides_changes(make_broker, browser, topic_name):
    b = make_broker(overrides={"console.port": "0", "console.read.only": "true"})
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    producer.send(topic_name, b"\x00\x01\x02 binary only").get(timeout=30)
    producer.close()
    host, port = b.server.console.addresses[0]
    d = browser
    d.get(f"http://{host}:{port}/#/topics")
    wait_text(d, "#topics", topic_name)
    wait_text(d, "#mode", "read-only")
    assert not d.find_elements(By.ID, "create-topic")
    d.get(f"http://{host}:{port}/#/topic/{topic_name}")
    wait_text(d, "#partitions tbody", "1")
    assert not d.find_elements(By.ID, "delete-topic")
    click(d, By.ID, "browse")
    wait_text(d, "#records tbody", "00 01 02")
    d.snap("read-only-records")
