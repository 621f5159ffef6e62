#!/usr/bin/env python3
"""A Specbase webhook receiver that checks both signatures of every delivery, with the Python 3
standard library only (3.7 or later). Guide: docs/webhook-receivers.md.

  WEBHOOK_SECRET      the webhook's secret, as given when it was created or as generated
  WEBHOOK_TARGET_URL  exactly the webhook's targetUrl (what Specbase posts to, not what this
                      server sees behind a proxy)
  PORT                default 3000 (0: any free port); HOST default 127.0.0.1

Prints "listening on http://<host>:<port>" once it listens, "accepted <webhook-id> <event>" for
each new event and "duplicate <webhook-id>" for a repeat on stdout, "rejected: <reason>" on stderr.
"""
import base64
import hashlib
import hmac
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 1024 * 1024


def required_env(name):
    value = os.environ.get(name, "")
    if not value:
        print(f"{name} is required", file=sys.stderr)
        sys.exit(2)
    return value


SECRET = required_env("WEBHOOK_SECRET").encode("utf-8")
TARGET_URL = required_env("WEBHOOK_TARGET_URL").encode("utf-8")


def mac(*parts):
    """HMAC-SHA256 keyed with the secret's UTF-8 bytes, over the parts in order."""
    digest = hmac.new(SECRET, digestmod=hashlib.sha256)
    for part in parts:
        digest.update(part)
    return digest.digest()


def header_bytes(headers, name):
    """A header's bytes, or None. http.server decodes header values as ISO-8859-1, so this is exact;
    comparing bytes also spares hmac.compare_digest, which raises on non-ASCII str."""
    value = headers.get(name)
    return None if value is None else value.encode("iso-8859-1")


def service_signature_problem(headers, raw):
    """X-Service-Signature: hex HMAC of the target URL immediately followed by the raw body."""
    given = header_bytes(headers, "X-Service-Signature")
    if given is None or not re.fullmatch(rb"[0-9a-fA-F]{64}", given):
        return "X-Service-Signature missing or malformed"
    expected = mac(TARGET_URL, raw).hex().encode("ascii")
    return None if hmac.compare_digest(expected, given.lower()) else "X-Service-Signature does not match"


def standard_signature_problem(headers, raw, now_seconds):
    """Standard Webhooks: "v1," + base64 HMAC of "<webhook-id>.<webhook-timestamp>.<raw body>"."""
    msg_id = header_bytes(headers, "webhook-id")
    timestamp = header_bytes(headers, "webhook-timestamp")
    signatures = header_bytes(headers, "webhook-signature")
    if msg_id is None or timestamp is None or signatures is None:
        return "webhook-id, webhook-timestamp or webhook-signature missing"
    if not re.fullmatch(rb"[0-9]{1,15}", timestamp):
        return "webhook-timestamp malformed"
    if abs(now_seconds - int(timestamp)) > TOLERANCE_SECONDS:
        return "webhook-timestamp too far from now"
    expected = base64.b64encode(mac(msg_id + b"." + timestamp + b".", raw))
    # Standard Webhooks allows several space-separated "v1,<signature>" entries (Specbase sends one): one must match.
    for entry in signatures.split(b" "):
        version, _, signature = entry.partition(b",")
        if version == b"v1" and hmac.compare_digest(expected, signature):
            return None
    return "webhook-signature does not match"


# Event ids already handled. Keep them in a table with a unique key in production, for longer than
# retries last (about 27 hours by default; a manual redelivery can come any time later).
seen = set()
seen_lock = threading.Lock()


def handle(event):
    # Answer first, work afterwards: Specbase waits WEBHOOK_TIMEOUT_MS (10 s by default) for the answer.
    resource_id = (event.get("resource") or {}).get("id", "")
    print(f"accepted {event['id']} {event['name']} {event['resourceType']} {resource_id}", flush=True)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        length = self.headers.get("Content-Length")
        if length is None or not re.fullmatch(r"[0-9]{1,10}", length):
            return self.answer(411)
        if int(length) > MAX_BODY_BYTES:
            self.close_connection = True
            return self.answer(413)
        # Verify the bytes exactly as received: a re-serialised JSON object would not match.
        raw = self.rfile.read(int(length))
        problem = service_signature_problem(self.headers, raw) or standard_signature_problem(self.headers, raw, time.time())
        if problem is not None:
            print(f"rejected: {problem}", file=sys.stderr, flush=True)
            return self.answer(401)
        try:
            event = json.loads(raw.decode("utf-8"))
        except ValueError:
            return self.answer(400)
        # webhook-id is covered by webhook-signature; it is the event id, the same on every retry.
        msg_id = self.headers["webhook-id"]
        with seen_lock:
            duplicate = msg_id in seen
            seen.add(msg_id)
        if duplicate:
            print(f"duplicate {msg_id}", flush=True)
            return self.answer(204)
        self.answer(204)
        threading.Thread(target=handle, args=(event,)).start()

    def answer(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass  # one line per event on stdout is enough here


if __name__ == "__main__":
    server = ThreadingHTTPServer((os.environ.get("HOST", "127.0.0.1"), int(os.environ.get("PORT", "3000"))), Receiver)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}", flush=True)
    server.serve_forever()
