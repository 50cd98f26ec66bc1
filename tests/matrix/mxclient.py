"""mxclient.py -- a small Matrix client-server HTTP client for the tests
(urllib, standard library only), to talk to the homeserver double the way
the bot does: JSON bodies, "Authorization: Bearer" headers, v3 paths.

    from mxclient import HTTPClient, q
    c = HTTPClient(hs.url)
    r = c.login("porrazo", "secret", device_id="BOT")   # sets c.token on 200
    r.status, r.json, r.errcode, r.headers["Retry-After"]
    c.get("/account/whoami")
    c.put("/rooms/%s/send/m.room.message/%s" % (q(room), q(txn)),
          {"msgtype": "m.text", "body": "hi"})
    c.sync(since=token, timeout=30000)

Paths not starting with /_matrix (or /_synapse, the admin API) are under
/_matrix/client/v3. Every status is returned (no exception for 4xx/5xx); a
connection the server drops raises
the urllib/http.client error (ConnectionError, http.client.RemoteDisconnected,
http.client.IncompleteRead, urllib.error.URLError). Proxies from the
environment are ignored.

TIMEOUT (seconds, from $PZ_MATRIX_TIMEOUT, default 30) is the default socket
timeout here and the default wait of the double's wait_for_* helpers: the
tests run on loaded 2-core machines, so waits are generous.
"""
import http.client
import json
import os
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT = float(os.environ.get("PZ_MATRIX_TIMEOUT", "30"))
PREFIX = "/_matrix/client/v3"

_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def q(segment):
    """Percent-encodes one path segment (room ids, user ids, types, txn ids)."""
    return urllib.parse.quote(segment, safe="")


class Response:
    """status, headers (case-insensitive), body (bytes), json (parsed body or
    None), errcode (json's errcode or None)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body
        try:
            self.json = json.loads(body.decode("utf-8")) if body else None
        except ValueError:
            self.json = None
        self.errcode = self.json.get("errcode") if isinstance(self.json, dict) else None

    def __repr__(self):
        return "<Response %d %s>" % (self.status, self.body[:300])


_DEFAULT = object()


class HTTPClient:
    def __init__(self, base_url, token=None, timeout=None):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = TIMEOUT if timeout is None else timeout

    def request(self, method, path, body=None, query=None, token=_DEFAULT, headers=None,
                data=None, timeout=None):
        """One request; body is JSON-encoded (data: raw bytes instead).
        token=None sends no Authorization header."""
        if not path.startswith(("/_matrix", "/_synapse")):
            path = PREFIX + path
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(
                {k: (json.dumps(v) if isinstance(v, dict) else
                     ("true" if v is True else "false" if v is False else v))
                 for k, v in query.items() if v is not None})
        hdrs = dict(headers or {})
        if data is None and body is not None:
            data = json.dumps(body).encode("utf-8")
        if data is not None:
            hdrs.setdefault("Content-Type", "application/json")
        if method in ("POST", "PUT") and data is None:
            data = b""
        token = self.token if token is _DEFAULT else token
        if token is not None:
            hdrs["Authorization"] = "Bearer " + token
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            with _opener.open(req, timeout=self.timeout if timeout is None else timeout) as r:
                return Response(r.status, r.headers, r.read())
        except urllib.error.HTTPError as e:
            try:
                payload = e.read()
            except http.client.IncompleteRead:
                raise
            return Response(e.code, e.headers, payload)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body=body, **kw)

    def put(self, path, body=None, **kw):
        return self.request("PUT", path, body=body, **kw)

    def login(self, user, password, device_id=None, **extra):
        """m.login.password with an m.id.user identifier; keeps the token."""
        body = {"type": "m.login.password",
                "identifier": {"type": "m.id.user", "user": user},
                "password": password}
        if device_id is not None:
            body["device_id"] = device_id
        body.update(extra)
        r = self.post("/login", body, token=None)
        if r.status == 200:
            self.token = r.json["access_token"]
        return r

    def sync(self, since=None, timeout=None, filter=None, full_state=None, http_timeout=None,
             **extra):
        """GET /sync; timeout in milliseconds (the long poll); the socket
        timeout is that plus TIMEOUT unless http_timeout is given."""
        query = {"since": since, "timeout": timeout, "filter": filter,
                 "full_state": full_state}
        query.update(extra)
        if http_timeout is None:
            wait = timeout if isinstance(timeout, int) else 0
            http_timeout = self.timeout + wait / 1000.0
        return self.get("/sync", query=query, timeout=http_timeout)

    def send(self, room_id, content, txn_id, etype="m.room.message"):
        return self.put("/rooms/%s/send/%s/%s" % (q(room_id), q(etype), q(txn_id)), content)
