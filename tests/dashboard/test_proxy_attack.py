"""Browser test: a page served by the proxy's target cannot drive the proxy's admin API (issue 29, finding 4).

Real headless Chromium (Debian's) driven by Playwright, like test_dashboard.py; run through scripts/dashboard-test.sh,
which passes the spotcheck binary in SPOTCHECK_BIN. The target is a small Python server that serves an attack page;
`spotcheck proxy` forwards to it. The page, loaded through the proxy's forwarded port, tries to read the journal (which
holds a client's Basic credentials) and to replace the fault rules, on the forwarded port and on the admin port.
Prints one line per test and closes with "N passed, N failed".
"""
import http.server as httpserver
import json
import os
import re
import subprocess
import sys
import threading
import time

from test_dashboard import http as dashboard_http, run_browser_tests

BIN = os.environ["SPOTCHECK_BIN"]
SECRET = "Basic ZjBlMWE0NzAtYzE4Ni00ZjYzLWJjMjQtMGIxYzU2ZWQ2ODZlOjQyNDI0Mg=="  # id:424242, what the app sends
RULES = {"rules": [{"name": "kept", "contract": "getAnnouncement", "fault": {"kind": "status", "status": 503}}]}
EVIL = {"rules": [{"name": "evil", "path": "/*", "fault": {"kind": "status", "status": 500}}]}

ATTACK_PAGE = """<!doctype html><meta charset="utf-8"><title>pets</title><script>
const admin = new URLSearchParams(location.search).get("admin");
const evil = JSON.stringify(%s);
async function attempt(name, run) {
  try { window.results[name] = await run(); } catch (e) { window.results[name] = "threw " + e.name; }
}
window.results = {};
(async () => {
  // Through the proxied origin: what the page shares an origin with.
  await attempt("sameOriginJournal", async () => { const r = await fetch("/__spotcheck/journal"); return r.status + " " + await r.text(); });
  await attempt("sameOriginFaults", async () => (await fetch("/__spotcheck/faults", {method: "PUT", headers: {"Content-Type": "application/json"}, body: evil})).status);
  await attempt("sameOriginReset", async () => (await fetch("/__spotcheck/reset", {method: "POST", headers: {"Content-Type": "application/json"}})).status);
  // The admin port: another origin on the same host.
  await attempt("adminJournal", async () => { const r = await fetch(admin + "/__spotcheck/journal"); return r.status + " " + await r.text(); });
  await attempt("adminFaultsJSON", async () => (await fetch(admin + "/__spotcheck/faults", {method: "PUT", headers: {"Content-Type": "application/json"}, body: evil})).status);
  // no-cors allows only GET, HEAD and POST, with a text/plain body: the add-a-rule route.
  await attempt("adminFaultsNoCors", async () => (await fetch(admin + "/__spotcheck/faults/rules", {method: "POST", mode: "no-cors", body: evil})).type);
  await attempt("adminResetNoCors", async () => (await fetch(admin + "/__spotcheck/reset", {method: "POST", mode: "no-cors"})).type);
  window.done = true;
})();
</script>""" % json.dumps(EVIL)


class Target:
    """The proxied server: serves the attack page at /pets.html, 200 JSON elsewhere, and records every path it is asked for."""

    def __init__(self):
        paths = self.paths = []

        class Handler(httpserver.BaseHTTPRequestHandler):
            def do_any(self):
                paths.append(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                page = self.path.startswith("/pets.html")
                body = ATTACK_PAGE.encode() if page else b'{"status":"ok"}'
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8" if page else "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = do_any

            def log_message(self, *args):
                pass

        self.server = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Proxy:
    """`spotcheck proxy --target URL` with its default ports; the forwarded and admin URLs are read from the banner."""

    def __init__(self, target, *extra):
        self.process = subprocess.Popen([BIN, "proxy", "--target", target, "--quiet", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.base = self.admin = None
        deadline = time.time() + 30
        while time.time() < deadline and not self.admin:
            line = self.process.stdout.readline()
            if not line:
                break
            if m := re.match(r"Proxying (http://\S+) ->", line):
                self.base = m.group(1)
            if m := re.match(r"Dashboard on (http://\S+?)/__spotcheck/", line):
                self.admin = m.group(1)
        assert self.base and self.admin, "proxy did not print its URLs"
        assert self.base != self.admin, "the dashboard must not be on the forwarded port"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()



def http(method, url, body=None, headers=None, timeout=10):
    """test_dashboard's request helper, with a proxy's longer default timeout."""
    return dashboard_http(method, url, body, headers, timeout)


def journal_with_details(proxy):
    """The journal page (summaries) and every exchange's details, where the headers are (curl's way, on the admin port)."""
    _, journal = http("GET", proxy.admin + "/__spotcheck/journal")
    details = [http("GET", f"{proxy.admin}/__spotcheck/journal/{entry['sequence']}")[1] for entry in journal["entries"]]
    return journal, json.dumps(details)


def test_a_target_page_cannot_read_the_journal_or_change_the_rules(page, target, proxy):
    # The app's traffic, with its credentials, and the rules a tester set, over the admin port (curl's way).
    status, _ = http("GET", proxy.base + "/api/v1/announcements/f0e1a470-c186-4f63-bc24-0b1c56ed686e", headers={"Authorization": SECRET})
    assert status == 200, status
    status, _ = http("PUT", proxy.admin + "/__spotcheck/faults", json.dumps(RULES).encode(), {"Content-Type": "application/json"})
    assert status == 200, status
    journal_before, details_before = journal_with_details(proxy)
    assert SECRET in details_before, "the journal should hold the app's Authorization header"

    page.goto(f"{proxy.base}/pets.html?admin={proxy.admin}")
    page.wait_for_function("window.done === true", timeout=30000)
    results = page.evaluate("window.results")
    print("  page saw:", json.dumps(results)[:600], flush=True)

    same = str(results["sameOriginJournal"])
    assert same.startswith("404 "), same
    assert SECRET not in same and "ZjBlMWE0" not in same, "the page read the journal"
    assert proxy.admin in same, "the refusal should say where the dashboard is"
    assert results["sameOriginFaults"] == 404, results
    assert results["sameOriginReset"] == 404, results
    # Cross-origin reads and JSON writes need CORS, which the admin API never grants; no-cors sends are opaque.
    assert str(results["adminJournal"]).startswith("threw"), results
    assert str(results["adminFaultsJSON"]).startswith("threw"), results
    assert results["adminFaultsNoCors"] == "opaque", results
    assert results["adminResetNoCors"] == "opaque", results

    # Nothing changed on the admin port, and no /__spotcheck/ request reached the target.
    status, rules = http("GET", proxy.admin + "/__spotcheck/faults")
    assert status == 200 and [r["name"] for r in rules["rules"]] == ["kept"], rules
    journal_after, details_after = journal_with_details(proxy)
    assert SECRET in details_after, "the journal was cleared"
    assert len(journal_after["entries"]) >= len(journal_before["entries"]), "the journal was cleared"
    assert not any(p.startswith("/__spotcheck") for p in target.paths), target.paths


def main():
    tests = [test_a_target_page_cannot_read_the_journal_or_change_the_rules]

    def run(browser, test):
        target = Target()
        proxy = Proxy(target.url)
        page = browser.new_page()
        try:
            test(page, target, proxy)
        finally:
            page.close()
            proxy.stop()
            target.stop()

    return run_browser_tests(tests, run)

if __name__ == "__main__":
    sys.exit(main())
