"""Browser tests of the SpotCheck dashboard: real headless Chromium (Debian's) driven by Playwright.

Run through scripts/dashboard-test.sh, which installs what is needed and passes the spotcheck binary in SPOTCHECK_BIN.
Prints one line per test and closes with "N passed, N failed".
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from playwright.sync_api import expect, sync_playwright

BIN = os.environ["SPOTCHECK_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOT = os.path.join(ROOT, "docs", "dashboard.png")
def make_png(width=64, height=48):
    """A small gradient PNG (real pixels, so the previews show something)."""
    import struct
    import zlib
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (40 + 3 * x, 120 + 2 * y, 200 - 2 * x)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


PNG = make_png()


class Serve:
    """A `spotcheck serve --port 0 --admin-port 0` process; its URLs are read from the banner."""

    def __init__(self, *extra):
        self.process = subprocess.Popen([BIN, "serve", "--port", "0", "--admin-port", "0", "--quiet", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.base = self.admin = self.dashboard = None
        deadline = time.time() + 30
        while time.time() < deadline and not self.dashboard:
            line = self.process.stdout.readline()
            if not line:
                break
            if m := re.match(r"Listening on (http://\S+)", line):
                self.base = m.group(1)
            if m := re.match(r"Admin API on (http://\S+?)/__spotcheck/", line):
                self.admin = m.group(1)
            if m := re.match(r"Dashboard on (http://\S+)", line):
                self.dashboard = m.group(1)
        assert self.base and self.admin and self.dashboard, "serve did not print its URLs"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def http(method, url, body=None, headers=None, timeout=5):
    """(status, parsed JSON or bytes); raises URLError when the connection fails."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, data = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, data = error.code, error.read()
    try:
        return status, json.loads(data)
    except ValueError:
        return status, data


def journal(serve, full=False):
    """Every kept journal entry, oldest first, from the paged summaries; with full, each entry's detail (headers, bodies)."""
    entries, cursor = [], None
    while True:
        status, page = http("GET", serve.admin + "/__spotcheck/journal" + (f"?cursor={cursor}" if cursor else ""))
        assert status == 200, (status, page)
        entries += page["entries"]
        cursor = page["next"]
        if cursor is None:
            break
    entries.reverse()
    if full:
        entries = [http("GET", f"{serve.admin}/__spotcheck/journal/{e['sequence']}")[1] for e in entries]
    return entries


def create(serve, pet_name):
    body = {"petName": pet_name, "species": "Dog", "sex": "MALE", "locationLatitude": 52.2, "locationLongitude": 21.0,
            "lastSeenDate": "2025-01-02", "status": "MISSING", "email": "owner@example.com"}
    status, answer = http("POST", serve.base + "/api/v1/announcements", json.dumps(body).encode(),
                          {"Content-Type": "application/json"})
    assert status == 201, (status, answer)
    return answer["id"], answer["managementPassword"]


def upload(serve, announcement_id, password):
    boundary = "spotcheckboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"pet.png\"\r\n"
            f"Content-Type: image/png\r\n\r\n").encode() + PNG + f"\r\n--{boundary}--\r\n".encode()
    import base64
    auth = base64.b64encode(f"{announcement_id}:{password}".encode()).decode()
    status, _ = http("POST", f"{serve.base}/api/v1/announcements/{announcement_id}/photos", body,
                     {"Content-Type": f"multipart/form-data; boundary={boundary}", "Authorization": f"Basic {auth}"})
    return status


def refused(serve):
    try:
        http("GET", serve.base + "/api/health", timeout=2)
        return False
    except urllib.error.URLError as error:
        return "refused" in str(error.reason).lower()


def eventually(check, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()


def test_request_appears_with_body(page, serve):
    page.goto(serve.dashboard)
    expect(page.locator("#conn")).to_have_text("live", timeout=10000)
    announcement_id, _ = create(serve, "Burek-live")
    row = page.locator("#traffic-rows tr", has_text="/api/v1/announcements").first
    expect(row).to_contain_text("201", timeout=10000)
    expect(row).to_contain_text("createAnnouncement")
    row.click()
    expect(page.locator("#request-body")).to_contain_text("Burek-live", timeout=10000)
    expect(page.locator("#response-body")).to_contain_text(announcement_id)
    expect(page.locator("#records")).to_contain_text(announcement_id, timeout=10000)


def test_upload_503_for_one_call(page, serve):
    page.goto(serve.dashboard)
    announcement_id, password = create(serve, "Reksio")
    row = page.locator('#fault-matrix tr[data-contract="uploadPhoto"]')
    row.locator("select").select_option("status")
    row.locator('input[data-field="status"]').fill("503")
    row.locator("input.times").fill("1")
    row.locator("button.apply").click()
    expect(page.locator("#active-rules")).to_contain_text("1 left", timeout=5000)
    assert upload(serve, announcement_id, password) == 503
    assert upload(serve, announcement_id, password) == 201
    expect(page.locator("#active-rules")).to_contain_text("0 left", timeout=5000)
    # By the status cell: an id in the path can hold the digits 503 too ("…b503b…").
    failed = page.locator("#traffic-rows tr", has_text="/photos").filter(
        has=page.locator("td.status", has_text=re.compile(r"^503$"))).first
    expect(failed).to_contain_text("status", timeout=10000)
    page.locator("#f-failures").check()
    expect(page.locator("#traffic-rows tr", has_text="/photos")).to_have_count(1, timeout=5000)
    page.locator("#f-failures").uncheck()
    page.locator("#clear-faults").click()
    expect(page.locator("#active-rules")).to_contain_text("none", timeout=5000)


def test_offline_and_back(page, serve):
    page.goto(serve.dashboard)
    expect(page.locator("#offline")).to_have_text("Go offline", timeout=5000)
    page.locator("#offline").click()
    expect(page.locator("#offline")).to_contain_text("OFFLINE", timeout=5000)
    assert eventually(lambda: refused(serve)), "the main port still answers while offline"
    # The page lives on the admin port, so it keeps working while the main port refuses.
    expect(page.locator("#conn")).to_have_text("live")
    page.locator("#offline").click()
    expect(page.locator("#offline")).to_have_text("Go offline", timeout=5000)
    assert eventually(lambda: not refused(serve)), "the main port did not come back"
    assert http("GET", serve.base + "/api/health")[0] == 200


def test_export_and_load_with_faults(page, serve):
    page.goto(serve.dashboard)
    row = page.locator('#fault-matrix tr[data-contract="createAnnouncement"]')
    row.locator("select").select_option("status")
    row.locator('input[data-field="status"]').fill("500")
    row.locator("input.times").fill("2")
    row.locator("button.apply").click()
    expect(page.locator("#active-rules")).to_contain_text("2 left", timeout=5000)
    with page.expect_download() as info:
        page.locator("#export").click()
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "faults.json")
    info.value.save_as(path)
    with open(path) as f:
        exported = json.load(f)
    assert exported["rules"][0]["contract"] == "createAnnouncement", exported
    page.locator("#clear-faults").click()
    second = Serve("--faults", path)
    try:
        body = json.dumps({"species": "Cat", "sex": "FEMALE", "locationLatitude": 1, "locationLongitude": 2,
                           "lastSeenDate": "2025-01-02", "status": "MISSING", "email": "a@example.com"}).encode()
        statuses = [http("POST", second.base + "/api/v1/announcements", body, {"Content-Type": "application/json"})[0]
                    for _ in range(3)]
        assert statuses == [500, 500, 201], statuses
    finally:
        second.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_time_based_rules_show_where_they_stand(page, serve):
    rules = {"rules": [{"name": "2 per minute", "quota": {"limit": 2, "windowSeconds": 60}},
                       {"name": "uploads down", "contract": "uploadPhoto", "outage": {"after": 0, "seconds": 30}}]}
    status, _ = http("PUT", serve.admin + "/__spotcheck/faults", json.dumps(rules).encode(), {"Content-Type": "application/json"})
    assert status == 200, status
    page.goto(serve.dashboard)
    expect(page.locator("#active-rules")).to_contain_text("quota: 2 per 60 s (shared)", timeout=5000)
    expect(page.locator("#active-rules")).to_contain_text("outage: waits for the first matching call", timeout=5000)
    statuses = [http("GET", serve.base + "/api/health")[0] for _ in range(3)]
    assert statuses == [200, 200, 429], statuses
    expect(page.locator("#active-rules li", has_text="2 per minute")).to_contain_text("applied 1", timeout=5000)
    page.locator("#rule-json-box summary").click()
    page.locator("#rule-json").fill('{"name": "worse", "ramp": {"from": 0, "to": 2, "seconds": 60}}')
    page.locator("#add-rule-json").click()
    expect(page.locator("#fault-error")).to_contain_text("/ramp/to: expected a chance from 0 to 1", timeout=5000)
    page.locator("#rule-json").fill('{"name": "worse", "ramp": {"from": 0, "to": 0.5, "seconds": 60}}')
    page.locator("#add-rule-json").click()
    expect(page.locator("#active-rules li", has_text="worse")).to_contain_text("ramp: waits for the first matching call", timeout=5000)
    http("GET", serve.base + "/api/health")
    expect(page.locator("#active-rules li", has_text="worse")).to_contain_text("ramp: failure chance now 0", timeout=5000)


def test_stays_usable_under_load(page, serve):
    """About 1,000 exchanges per second for a few seconds: the page keeps a bounded window and still answers clicks."""
    import threading
    from http.client import HTTPConnection
    page.goto(serve.dashboard)
    expect(page.locator("#conn")).to_have_text("live", timeout=10000)
    host, port = serve.base.removeprefix("http://").split(":")
    stop = time.time() + 4
    counts = []

    def hammer():
        connection = HTTPConnection(host, int(port), timeout=10)
        sent = 0
        while time.time() < stop:
            # Paced to about 1,000 per second in total across the four clients.
            connection.request("GET", f"/api/v1/announcements?lat=1&lng=2&range={sent % 50 + 1}")
            connection.getresponse().read()
            sent += 1
            time.sleep(0.002)
        counts.append(sent)

    clients = [threading.Thread(target=hammer) for _ in range(4)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    total = sum(counts)
    print(f"     sent {total} requests in 4 s ({total / 4:.0f}/s)", flush=True)
    expect(page.locator("#traffic-rows tr").first).to_contain_text("listAnnouncements", timeout=10000)
    rows = page.locator("#traffic-rows tr").count()
    assert 0 < rows <= 400, rows
    # The newest exchange reaches the page (or the page says how many it skipped).
    newest = http("GET", serve.admin + "/__spotcheck/journal?limit=1")[1]["entries"][0]["sequence"]
    expect(page.locator("#traffic-rows tr").first.locator("td").first).to_have_text(str(newest), timeout=10000)
    page.locator("#traffic-rows tr").nth(5).click()
    expect(page.locator("#response-body")).to_contain_text("data", timeout=5000)


# A page on another origin (another port of the same machine, as a local dev server or a page with a rebound name
# would be) trying every write it can make without a CORS grant: no-cors fetches with text/plain bodies, bodiless
# fetches, form posts into hidden frames, and a JSON fetch that needs a preflight.
ATTACK_PAGE = """<!doctype html><meta charset="utf-8"><title>attack</title><body><script>
const targets = %s;
const writes = [['POST', 'reset', ''], ['POST', 'faults/rules', '{"fault": {"kind": "refuse"}}'],
  ['PUT', 'faults', '{"rules": [{"fault": {"kind": "refuse"}}]}'], ['DELETE', 'faults', ''], ['POST', 'faults/offline', ''],
  ['POST', 'faults/presets/chaos', ''], ['POST', 'state/fixtures', '{"announcements": []}'],
  ['DELETE', 'state/records/announcements/%s', ''], ['DELETE', 'journal', ''], ['POST', 'shutdown', '']];
async function attack() {
  const tries = [];
  for (const base of targets) {
    for (const [method, path, body] of writes) {
      tries.push(fetch(base + '/__spotcheck/' + path, { method, mode: 'no-cors', body: body || undefined,
                                                        headers: { 'Content-Type': 'text/plain' } }).catch(() => null));
      tries.push(fetch(base + '/__spotcheck/' + path, { method, mode: 'cors', body: body || undefined,
                                                        headers: { 'Content-Type': 'application/json' } }).catch(() => null));
    }
    for (const path of ['reset', 'faults/offline', 'shutdown', 'state/fixtures']) {
      const frame = document.createElement('iframe');
      frame.name = 'f' + Math.random();
      document.body.appendChild(frame);
      const form = document.createElement('form');
      form.method = 'POST'; form.action = base + '/__spotcheck/' + path; form.target = frame.name;
      form.enctype = 'text/plain';
      const input = document.createElement('input');
      input.name = '{"announcements": [], "x":"'; input.value = '"}';
      form.appendChild(input);
      document.body.appendChild(form);
      tries.push(new Promise((done) => { frame.onload = done; setTimeout(done, 3000); form.submit(); }));
    }
  }
  // Proof that the page's requests reach the server: the app's API journals this one.
  tries.push(fetch(targets[0] + '/api/v1/announcements?attack=marker', { mode: 'no-cors' }).catch(() => null));
  await Promise.all(tries);
  document.title = 'done';
}
attack();
</script>"""


class AttackSite:
    """A tiny web server on another port serving one page: another origin on the same machine."""

    def __init__(self, page_html):
        import http.server
        import threading
        body = page_html.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def state_of(serve):
    status, state = http("GET", serve.admin + "/__spotcheck/state?limit=1000")
    assert status == 200, (status, state)
    status, faults = http("GET", serve.admin + "/__spotcheck/faults/active")
    assert status == 200, (status, faults)
    return sorted(a["id"] for a in state["records"]), faults


def test_other_origin_cannot_change_anything(page, serve):
    announcement_id, _ = create(serve, "Kept")
    # The dashboard itself still changes state: a rule added here must survive the attack.
    page.goto(serve.dashboard)
    row = page.locator('#fault-matrix tr[data-contract="getAnnouncement"]')
    row.locator("select").select_option("status")
    row.locator('input[data-field="status"]').fill("418")
    row.locator("button.apply").click()
    expect(page.locator("#active-rules")).to_contain_text("getAnnouncement", timeout=5000)
    before = state_of(serve)
    assert before[0] == [announcement_id] and len(before[1]["rules"]) == 1, before
    site = AttackSite(ATTACK_PAGE % (json.dumps([serve.base, serve.admin]), announcement_id))
    try:
        page.goto(site.url)
        expect(page).to_have_title("done", timeout=20000)
    finally:
        site.stop()
    assert state_of(serve) == before, (before, state_of(serve))
    assert http("GET", serve.base + "/api/health")[0] == 200, "the server stopped"
    assert any("attack=marker" in e["target"] for e in journal(serve)), "the attack page's requests never arrived"
    # And the page that belongs here still works after it.
    page.goto(serve.dashboard)
    expect(page.locator("#active-rules")).to_contain_text("getAnnouncement", timeout=5000)
    page.locator("#clear-faults").click()
    expect(page.locator("#active-rules")).to_contain_text("none", timeout=5000)


def test_rebound_name_is_refused(page, serve):
    """A name that resolves to 127.0.0.1 (Chromium maps rebind.test there) gets neither the page nor the data."""
    admin_port = serve.admin.rsplit(":", 1)[1]
    response = page.goto(f"http://rebind.test:{admin_port}/__spotcheck/")
    assert response.status == 421, response.status
    assert "--allow-host rebind.test" in page.content()
    response = page.goto(f"http://rebind.test:{admin_port}/__spotcheck/state")
    assert response.status == 421, response.status
    assert "managementPassword" not in page.content()


def copied_curl(page, dashboard, row_text):
    """The command the dashboard's "Copy as curl" puts on the clipboard for the newest row containing row_text."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(dashboard)
    row = page.locator("#traffic-rows tr", has_text=row_text).first
    row.click()
    page.locator("#copy-curl").click()
    expect(page.locator("#copy-curl")).to_have_text("Copied", timeout=5000)
    return page.evaluate("navigator.clipboard.readText()")


def run_curl(command):
    result = subprocess.run(["bash", "-c", command + " -sS -o /dev/null -w '%{http_code}'"], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, (command, result.stderr)
    return result.stdout


def test_copy_as_curl_sends_the_body_literally_to_the_main_port(page, serve):
    assert serve.dashboard.startswith(serve.admin), "the dashboard should be on the admin port"
    # A body that curl would read from a file if it were passed as @...; with quotes and a newline too.
    text = "@/etc/hostname it's\n$(echo x) `y` \\ \"q\""
    status, _ = http("POST", serve.base + "/api/v1/announcements?copy=text", text.encode(), {"Content-Type": "application/json"})
    assert status == 400, status
    command = copied_curl(page, serve.dashboard, "copy=text")
    assert command.startswith("curl ") and serve.base + "/api/v1/announcements?copy=text" in command, command
    assert serve.admin not in command and "--data-binary @/" not in command and "--data-raw $'@/etc/hostname" in command, command
    assert run_curl(command) == "400"
    sent = [e for e in journal(serve, full=True) if e.get("query") == "copy=text"]
    assert len(sent) == 2 and sent[1]["requestBody"]["text"] == text, sent

    # A binary body (a multipart photo with NUL bytes) goes through printf, byte for byte.
    announcement_id, password = create(serve, "Binary")
    assert upload(serve, announcement_id, password) == 201
    command = copied_curl(page, serve.dashboard, "/photos")
    assert "printf '%b'" in command and "--data-binary @-" in command and serve.base in command, command[:300]
    run_curl(command)
    uploads = [e for e in journal(serve, full=True) if e["path"].endswith("/photos")]
    assert len(uploads) == 2, len(uploads)
    first, second = uploads[0]["requestBody"], uploads[1]["requestBody"]
    assert first.get("base64") and first == second, "the replayed photo differs"


def take_screenshot(page, serve):
    page.goto(serve.dashboard)
    expect(page.locator("#conn")).to_have_text("live", timeout=10000)
    for name in ("Luna", "Azor", "Mruczek"):
        announcement_id, password = create(serve, name)
        upload(serve, announcement_id, password)
    late_id, late_password = create(serve, "Pimpek")
    http("GET", serve.base + "/api/v1/announcements?lat=52.2&lng=21.0&range=5")
    http("GET", serve.base + "/api/v1/announcements/00000000-0000-4000-8000-000000000000")
    row = page.locator('#fault-matrix tr[data-contract="uploadPhoto"]')
    row.locator("select").select_option("status")
    row.locator('input[data-field="status"]').fill("503")
    row.locator("input.times").fill("3")
    row.locator("button.apply").click()
    expect(page.locator("#active-rules")).to_contain_text("3 left", timeout=5000)
    assert upload(serve, late_id, late_password) == 503
    # By the status cell: an id in the path can hold the digits 503 too ("…b503b…").
    failed = page.locator("#traffic-rows tr", has_text="/photos").filter(
        has=page.locator("td.status", has_text=re.compile(r"^503$"))).first
    expect(failed).to_be_visible(timeout=10000)
    failed.click()
    expect(page.locator("#detail")).to_contain_text("uploadPhoto: status 503", timeout=10000)
    expect(page.locator("#request-body img")).to_be_visible(timeout=10000)
    page.wait_for_timeout(3500)
    page.screenshot(path=SCREENSHOT, full_page=True)


def run_browser_tests(tests, run, extra_args=()):
    """Launches Debian's chromium, runs each test through `run(browser, test)` (which sets up and tears down what the
    test needs), prints PASS or FAIL with the traceback, and returns the exit code."""
    passed = failed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox", *extra_args])
        for test in tests:
            try:
                run(browser, test)
                passed += 1
                print(f"PASS {test.__name__}", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}", flush=True)
                traceback.print_exc()
        browser.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def with_serve(browser, test, downloads=False):
    """Runs `test(page, serve)` against a fresh `spotcheck serve` and a fresh page."""
    serve = Serve()
    page = browser.new_page(viewport={"width": 1440, "height": 900}, accept_downloads=downloads)
    try:
        test(page, serve)
    finally:
        page.close()
        serve.stop()


def main():
    tests = [test_request_appears_with_body, test_upload_503_for_one_call, test_offline_and_back,
             test_export_and_load_with_faults, test_time_based_rules_show_where_they_stand, test_stays_usable_under_load, test_other_origin_cannot_change_anything,
             test_rebound_name_is_refused, test_copy_as_curl_sends_the_body_literally_to_the_main_port]
    return run_browser_tests(tests + [take_screenshot], lambda browser, test: with_serve(browser, test, downloads=True),
                             extra_args=["--host-resolver-rules=MAP rebind.test 127.0.0.1"])

if __name__ == "__main__":
    sys.exit(main())
