#!/usr/bin/env python3
"""A server that changed one rule the way the real backend did later, for the transcript in docs/verify.md.

It forwards every request to a `spotcheck serve` (UPSTREAM) and answers one case itself: a create whose
email is blank after trimming gets 400 INVALID_FORMAT email "email format is invalid", even next to a
valid phone (the model, like the documented backend, accepts it).

    spotcheck serve --port 3000 &
    python3 bench/changed_server.py 3001 http://127.0.0.1:3000 &
    spotcheck verify --target http://127.0.0.1:3001 --seed 24

Standard library only.
"""
import http.client
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PORT = int(sys.argv[1])
UPSTREAM = urlsplit(sys.argv[2])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.command == "POST" and self.path.rstrip("/").lower() == "/api/v1/announcements":
            try:
                email = json.loads(body).get("email")
            except Exception:
                email = None
            if isinstance(email, str) and email.strip() == "":
                answer = json.dumps({"error": {"code": "INVALID_FORMAT", "message": "email format is invalid",
                                               "field": "email", "requestId": "changed001"}}).encode()
                self.send_response(400)
                # The headers service.json states for every answer: the change is the rule, not these.
                self.send_header("X-Powered-By", "Express")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("request-id", "changed001")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
                return
        connection = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        connection.close()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _forward


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
