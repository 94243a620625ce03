"""HAR out, checked in a real browser: every HAR SpotCheck writes is valid HAR 1.2 and Chromium replays it.

Run through scripts/dashboard-test.sh (SPOTCHECK_BIN is the spotcheck binary). Each HAR is validated against
har-1.2.schema.json (beside this file, written from the HAR 1.2 spec) and then served back to a page by Playwright's
own HAR replay (route_from_har), the way Chrome's network panel reads it: URLs, statuses, headers and bodies,
base64 ones included. Prints one line per test and closes with "N passed, N failed".
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import jsonschema
except ImportError:  # installed here, by the script that uses it, into the test venv
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "jsonschema==4.23.0"])
    import jsonschema


from test_dashboard import BIN, PNG, ROOT, Serve, create, http, run_browser_tests, upload

SCHEMA = json.load(open(os.path.join(HERE, "har-1.2.schema.json")))


def valid_har(path):
    """The parsed HAR at path, after checking it against the HAR 1.2 schema."""
    with open(path) as f:
        har = json.load(f)
    jsonschema.validate(har, SCHEMA)
    return har


def add_rule(serve, rule):
    status, answer = http("POST", serve.admin + "/__spotcheck/faults/rules", json.dumps(rule).encode(),
                          {"Content-Type": "application/json"})
    assert status == 201, (status, answer)


def replays(browser, har_path, origin, checks):
    """Serves a fresh page from the HAR alone (anything not in it is aborted) and runs checks(page)."""
    context = browser.new_context()
    try:
        context.route_from_har(har_path, not_found="abort")
        page = context.new_page()
        checks(page)
    finally:
        context.close()


def test_dashboard_export_opens_in_chromium(browser, tmp):
    serve = Serve()
    try:
        ident, password = create(serve, "Burek")
        assert upload(serve, ident, password) == 201
        status, announcement = http("GET", f"{serve.base}/api/v1/announcements/{ident}")
        image = announcement["photoUrl"]
        status, data = http("GET", serve.base + image)
        assert status == 200 and data == PNG
        add_rule(serve, {"name": "list down", "contract": "listAnnouncements", "times": 1,
                         "fault": {"kind": "status", "status": 503, "headers": {"Retry-After": "3"}}})
        assert http("GET", serve.base + "/api/v1/announcements")[0] == 503

        page = browser.new_page(accept_downloads=True)
        page.goto(serve.dashboard)
        page.wait_for_selector("#traffic-rows tr")
        with page.expect_download() as download:
            page.click("#export-har")
        path = os.path.join(tmp, "dashboard.har")
        download.value.save_as(path)
        page.close()
        har = valid_har(path)
        entries = har["log"]["entries"]
        assert [e["request"]["method"] for e in entries] == ["POST", "POST", "GET", "GET", "GET"], entries
        photo = entries[3]["response"]["content"]
        assert photo["encoding"] == "base64" and base64.b64decode(photo["text"]) == PNG
        assert entries[4]["response"]["status"] == 503
        assert entries[4]["_spotcheck"]["fault"] == "status" and entries[4]["_spotcheck"]["rule"] == "list down"
        assert entries[0]["_spotcheck"]["fault"] is None

        # The dashboard's status filter goes into the link: only the 503.
        page = browser.new_page(accept_downloads=True)
        page.goto(serve.dashboard)
        page.wait_for_selector("#traffic-rows tr")
        page.fill("#f-status", "5xx")
        with page.expect_download() as download:
            page.click("#export-har")
        filtered = os.path.join(tmp, "filtered.har")
        download.value.save_as(filtered)
        page.close()
        assert [e["response"]["status"] for e in valid_har(filtered)["log"]["entries"]] == [503]
        base = serve.base
    finally:
        serve.stop()

    # The server is gone: everything below comes out of the HAR.
    def checks(page):
        answer = page.goto(f"{base}/api/v1/announcements/{ident}")
        assert answer.status == 200 and json.loads(answer.body())["petName"] == "Burek"
        picture = page.goto(base + image)
        assert picture.status == 200 and picture.body() == PNG, picture.status
        result = page.evaluate("async (u) => { const r = await fetch(u); return [r.status, r.headers.get('retry-after')]; }",
                               f"{base}/api/v1/announcements")
        assert result == [503, "3"], result
    replays(browser, path, base, checks)


def test_proxy_record_har_survives_term(browser, tmp):
    serve = Serve()
    path = os.path.join(tmp, "proxy.har")
    proxy = subprocess.Popen([BIN, "proxy", "--target", serve.base, "--port", "0", "--record-har", path, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proxy.stdout.readline()
        assert line.startswith("Proxying "), line
        proxied = line.split()[1]
        ident, password = create(type("P", (), {"base": proxied})(), "Azor")
        assert http("GET", f"{proxied}/api/v1/announcements/{ident}")[0] == 200
        # Complete after every exchange, before any shutdown.
        assert len(valid_har(path)["log"]["entries"]) == 2
        proxy.send_signal(signal.SIGTERM)
        proxy.wait(20)
        har = valid_har(path)
        assert [e["response"]["status"] for e in har["log"]["entries"]] == [201, 200]
        assert har["log"]["entries"][0]["request"]["url"] == serve.base + "/api/v1/announcements"
    finally:
        if proxy.poll() is None:
            proxy.kill()
        serve.stop()

    def checks(page):
        answer = page.goto(f"{serve.base}/api/v1/announcements/{ident}")
        assert answer.status == 200 and json.loads(answer.body())["petName"] == "Azor"
    replays(browser, path, serve.base, checks)


def test_run_writes_a_har_per_failed_scenario(browser, tmp):
    scenarios = os.path.join(tmp, "scenarios")
    shutil.copytree(os.path.join(ROOT, "scenarios", "fixtures"), os.path.join(scenarios, "fixtures"))
    with open(os.path.join(ROOT, "scenarios", "fault-step2-503.json")) as f:
        scenario = json.load(f)
    scenario["steps"][0]["expect"]["alert"] = {"kind": "noConnection"}  # wrong on purpose: the scenario fails
    with open(os.path.join(scenarios, "fault-step2-503.json"), "w") as f:
        json.dump(scenario, f)
    junit = os.path.join(tmp, "out", "junit.xml")
    os.makedirs(os.path.dirname(junit))
    result = subprocess.run([BIN, "run", "--scenarios", scenarios, "--contracts", os.path.join(ROOT, "contracts"), "--junit", junit],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    path = os.path.join(tmp, "out", "fault-step2-503.har")
    har = valid_har(path)
    statuses = [e["response"]["status"] for e in har["log"]["entries"]]
    assert statuses[:2] == [201, 503], statuses
    assert har["log"]["entries"][1]["_spotcheck"]["fault"] == "status"
    created = har["log"]["entries"][0]

    def checks(page):
        page.goto("about:blank")
        # The client's create, sent again with the same body, is answered from the HAR as it was on the wire.
        answer = page.evaluate("async ([u, t, b]) => { const r = await fetch(u, {method: 'POST', headers: {'Content-Type': t}, body: b});"
                               " return [r.status, await r.text()]; }",
                               [created["request"]["url"], created["request"]["postData"]["mimeType"], created["request"]["postData"]["text"]])
        assert answer[0] == 201 and json.loads(answer[1]) == json.loads(created["response"]["content"]["text"]), answer
    replays(browser, path, "", checks)


def main():
    tests = [test_dashboard_export_opens_in_chromium, test_proxy_record_har_survives_term, test_run_writes_a_har_per_failed_scenario]

    def run(browser, test):
        tmp = tempfile.mkdtemp(prefix="spotcheck-har-")
        try:
            test(browser, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    return run_browser_tests(tests, run)

if __name__ == "__main__":
    sys.exit(main())
