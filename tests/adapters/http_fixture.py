#!/usr/bin/env python3
"""http_fixture.py — the HTTP/1.1 server test_mx_http talks to: Python's
standard library on 127.0.0.1, a free port printed on the first line of
stdout, one thread per connection, keep-alive. It exits on SIGTERM or
when its parent goes away.

Routes (any method; a request body is always read):
  /echo...            200, JSON: method, path (with the query), the
                      Authorization, Content-Type and User-Agent headers
                      (null when absent), the body, the client's port
  /status/CODE        that status with a small JSON body; ?retry_after=RAW
                      adds "Retry-After: RAW", ?retry_in=S an HTTP-date S
                      seconds from now (negative: in the past),
                      ?location=URL a Location header
  /big?n=N[&chunked=1]  N bytes of 'x', with Content-Length or chunked
  /drop               Content-Length 1000, 10 bytes, then the connection
                      is closed
  /hangup             the connection is closed without a reply
  /slow?ms=N          sleeps N ms, then 200 {"slept": N}
"""
import email.utils
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body, headers=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        arg = lambda name, default=None: query.get(name, [default])[0]
        if url.path.startswith("/echo"):
            echo = {
                "method": self.command,
                "path": self.path,
                "authorization": self.headers.get("Authorization"),
                "content_type": self.headers.get("Content-Type"),
                "user_agent": self.headers.get("User-Agent"),
                "body": body.decode("utf-8", "replace"),
                "client_port": self.client_address[1],
            }
            self.reply(200, json.dumps(echo), [("Content-Type", "application/json")])
        elif url.path.startswith("/status/"):
            code = int(url.path[len("/status/"):])
            headers = []
            if arg("retry_after") is not None:
                headers.append(("Retry-After", arg("retry_after")))
            if arg("retry_in") is not None:
                when = time.time() + int(arg("retry_in"))
                headers.append(("Retry-After", email.utils.formatdate(when, usegmt=True)))
            if arg("location") is not None:
                headers.append(("Location", arg("location")))
            self.reply(code, json.dumps({"errcode": "M_TEST", "status": code}), headers)
        elif url.path == "/big":
            data = b"x" * int(arg("n", "0"))
            if arg("chunked") == "1":
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i in range(0, len(data), 1000):
                    part = data[i:i + 1000]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.reply(200, data)
        elif url.path == "/drop":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
        elif url.path == "/hangup":
            self.close_connection = True
        elif url.path == "/slow":
            ms = int(arg("ms", "0"))
            time.sleep(ms / 1000)
            self.reply(200, json.dumps({"slept": ms}))
        else:
            self.reply(404, json.dumps({"errcode": "M_UNRECOGNIZED"}))

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request, client_address):
        pass  # a client that went away (a timeout, a cancel) is expected


def watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
