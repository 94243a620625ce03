"""Attack pages against `spotcheck serve` in real headless Chromium (issue 29, findings 1 and 2).

A page served from ANOTHER origin (a tiny http.server on another loopback port) tries what the second probe did:
list the announcements and delete them with the public default token through fetch, and frame the dashboard under a
decoy button. Each test also runs a control where the attack must work (the old behaviour, `--allow-browser-admin`,
or a frameable page), so a test cannot pass because the page never ran.

Run through scripts/dashboard-test.sh (SPOTCHECK_BIN names the binary). Prints one line per test and "N passed, N failed".
"""
import json
import sys


from test_dashboard import AttackSite, Serve, create, http, run_browser_tests, upload, with_serve

DEFAULT_TOKEN = "tajnehasloadmina"

# Lists the announcements (the real web app's read, open to every origin) and tries to delete each one on both mounts:
# a CORS fetch with the token (needs a preflight granting DELETE and Authorization) and a no-cors one.
DELETE_PAGE = """<!doctype html><meta charset="utf-8"><title>attack</title><body><script>
const base = %s, token = %s;
async function attack() {
  const result = { listed: 0, deleted: 0, errors: [] };
  try {
    const list = await (await fetch(base + '/api/v1/announcements')).json();
    const ids = list.data.map((a) => a.id);
    result.listed = ids.length;
    for (const id of ids) {
      for (const mount of ['/api/v1/announcements/', '/api/admin/v1/announcements/']) {
        try {
          const answer = await fetch(base + mount + encodeURIComponent(id), { method: 'DELETE', headers: { Authorization: token } });
          if (answer.status === 204) result.deleted++;
        } catch (error) { result.errors.push(String(error)); }
        await fetch(base + mount + encodeURIComponent(id), { method: 'DELETE', mode: 'no-cors' }).catch(() => null);
      }
    }
  } catch (error) { result.errors.push(String(error)); }
  document.title = 'done ' + JSON.stringify(result);
}
attack();
</script>"""

# The clickjacking page: a decoy button with the framed page laid over it, invisible.
FRAME_PAGE = """<!doctype html><meta charset="utf-8"><title>win a prize</title>
<body style="margin:0"><button id="decoy" style="position:absolute;left:0;top:0;width:1400px;height:880px">Click to win</button>
<iframe name="target" src="%s" style="position:absolute;left:0;top:0;width:1400px;height:880px;opacity:0.01;border:0"></iframe>
</body>"""


def stored_ids(serve):
    status, state = http("GET", serve.admin + "/__spotcheck/state?limit=1000")
    assert status == 200, (status, state)
    return sorted(a["id"] for a in state["records"])


def five_with_photos(serve):
    for name in ("Azor", "Burek", "Luna", "Mruczek", "Reksio"):
        announcement_id, password = create(serve, name)
        assert upload(serve, announcement_id, password) == 201
    ids = stored_ids(serve)
    assert len(ids) == 5, ids
    return ids


def run_delete_page(page, serve):
    site = AttackSite(DELETE_PAGE % (json.dumps(serve.base), json.dumps(DEFAULT_TOKEN)))
    try:
        page.goto(site.url)
        page.wait_for_function("document.title.startsWith('done')", timeout=30000)
        return json.loads(page.title()[len("done "):])
    finally:
        site.stop()


def test_another_site_cannot_delete_with_the_default_token(page, serve):
    before = five_with_photos(serve)
    result = run_delete_page(page, serve)
    # The read is what the real web app does, so it stays open; the deletes get no grant and change nothing.
    assert result["listed"] == 5, result
    assert result["deleted"] == 0, result
    assert stored_ids(serve) == before, (before, stored_ids(serve))
    # The app and curl still delete with the token.
    status, _ = http("DELETE", f"{serve.base}/api/v1/announcements/{before[0]}", headers={"Authorization": DEFAULT_TOKEN})
    assert status == 204, status
    assert stored_ids(serve) == before[1:]


def test_control_allow_browser_admin_lets_the_same_page_delete(page, _serve):
    """The real backend's behaviour, kept behind a flag: the same page deletes every announcement."""
    serve = Serve("--allow-browser-admin")
    try:
        five_with_photos(serve)
        result = run_delete_page(page, serve)
        assert result["listed"] == 5 and result["deleted"] == 5, result
        assert stored_ids(serve) == [], stored_ids(serve)
    finally:
        serve.stop()


def frame_outcome(page, framed_url):
    """Loads the clickjacking page around framed_url, clicks the decoy, and says what the frame held."""
    console = []
    page.on("console", lambda message: console.append(message.text))
    site = AttackSite(FRAME_PAGE % framed_url)
    try:
        page.goto(site.url)
        page.wait_for_timeout(1500)
        frame = page.frame(name="target")
        assert frame is not None, "the page has no frame"
        reset = frame.query_selector("#reset")
        # The user's click lands on whatever the frame shows at the decoy's place.
        page.mouse.click(700, 20)
        if reset is not None:
            reset.click(force=True)
        page.wait_for_timeout(500)
        return {"loaded": reset is not None, "url": frame.url, "console": console}
    finally:
        site.stop()


def test_the_dashboard_cannot_be_framed(page, serve):
    five_with_photos(serve)
    http("POST", serve.admin + "/__spotcheck/faults/rules", json.dumps({"contract": "health", "fault": {"kind": "status", "status": 418}}).encode(),
         {"Content-Type": "application/json"})
    before = stored_ids(serve), http("GET", serve.admin + "/__spotcheck/faults/active")[1]
    for dashboard in (serve.dashboard, serve.base + "/__spotcheck/"):
        outcome = frame_outcome(page, dashboard)
        assert not outcome["loaded"], f"the dashboard at {dashboard} loaded in another site's frame"
        blocked = [line for line in outcome["console"] if "frame-ancestors" in line or "X-Frame-Options" in line]
        assert blocked, outcome
    after = stored_ids(serve), http("GET", serve.admin + "/__spotcheck/faults/active")[1]
    assert after[0] == before[0], (before[0], after[0])
    assert [r["rule"] for r in after[1]["rules"]] == [r["rule"] for r in before[1]["rules"]], (before[1], after[1])
    assert not after[1]["offline"]
    # Opened directly, the dashboard still works under its policy: no script or style is blocked.
    errors = []
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None)
    page.goto(serve.dashboard)
    page.wait_for_selector("#records li", timeout=10000)
    page.wait_for_selector("#fault-matrix tr", timeout=10000)
    assert page.locator("#records li").count() == 5
    assert not errors, errors


def test_control_a_frameable_page_loads_in_the_frame(page, _serve):
    """The attack page itself works: a page that allows framing (the attack site's own) loads, so a blocked frame
    above is the server's headers at work, not a broken test."""
    inner = AttackSite('<!doctype html><button id="reset">reset</button>')
    try:
        outcome = frame_outcome(page, inner.url)
        assert outcome["loaded"], outcome
    finally:
        inner.stop()


def main():
    tests = [test_another_site_cannot_delete_with_the_default_token, test_control_allow_browser_admin_lets_the_same_page_delete,
             test_the_dashboard_cannot_be_framed, test_control_a_frameable_page_loads_in_the_frame]
    return run_browser_tests(tests, with_serve)

if __name__ == "__main__":
    sys.exit(main())
