"""mxmodel.py -- the data of the Matrix homeserver double (homeserver.py):
the error answer (MatrixError), Synapse's rate limiter, events, rooms and the
state they make, filters, accounts and access tokens, and the constants
Synapse uses (event size limit, room versions, presets, prejoin state). Plain
objects, no locking: ServerState (mxstate.py) owns them behind its lock.

Event ids are "$" + 43 url-safe base64 characters (room version 4+ style),
room ids "!<18 letters>:<server name>". Timestamps are milliseconds since the
epoch; an event's unsigned.age is computed when it is serialised.
"""
import base64
import bisect
import copy
import fnmatch
import json
import math
import os
import secrets
import string
import threading
import time

MAX_PDU_SIZE = 65536                 # Synapse: whole PDU, canonical JSON
MAX_REQUEST_SIZE = 200 * MAX_PDU_SIZE
MAX_UPLOAD_SIZE = 50 * 1024 * 1024  # Synapse's max_upload_size (50M)
DEFAULT_ROOM_VERSION = "10"          # Synapse's default_room_version (since 1.76)
KNOWN_ROOM_VERSIONS = tuple(str(v) for v in range(1, 12))
FILTER_TIMELINE_LIMIT = 100          # Synapse's filter_timeline_limit
MAX_JSON_INT = 2 ** 53 - 1           # canonical JSON integer range

# Synapse's room_prejoin_state defaults: what an invited user sees.
PREJOIN_STATE_TYPES = ("m.room.join_rules", "m.room.canonical_alias", "m.room.avatar",
                       "m.room.encryption", "m.room.name", "m.room.create",
                       "m.room.topic")

# Synapse's createRoom presets (synapse/handlers/room.py).
PRESETS = {
    "private_chat": {"join_rule": "invite", "guest": True, "invitees_ops": False,
                     "pl_override": {"invite": 0}},
    "trusted_private_chat": {"join_rule": "invite", "guest": True, "invitees_ops": True,
                             "pl_override": {"invite": 0}},
    "public_chat": {"join_rule": "public", "guest": False, "invitees_ops": False,
                    "pl_override": {"m.call.invite": 50}},
}

# Rate limiters: name -> (per_second, burst_count). SYNAPSE_RATE_LIMITS are
# Synapse's own defaults (rc_message, rc_login.account, rc_joins.local,
# rc_invites.per_issuer) and the double's: a test that needs another pace
# says so (PERMISSIVE_RATE_LIMITS, or set_rate_limit), and a whole game at
# machine speed exempts the bot's account as a server admin would, through
# POST /_synapse/admin/v1/users/{user}/override_ratelimit.
SYNAPSE_RATE_LIMITS = {"message": (0.2, 10), "login": (0.003, 5),
                       "join": (0.1, 10), "invite": (0.3, 10)}
PERMISSIVE_RATE_LIMITS = {"message": (100.0, 1000), "login": (10.0, 100),
                          "join": (100.0, 1000), "invite": (100.0, 1000)}
DEFAULT_RATE_LIMITS = SYNAPSE_RATE_LIMITS


class MatrixError(Exception):
    """An error answer: HTTP status, errcode, message, extra body fields and
    extra HTTP headers."""

    def __init__(self, status, errcode, error, headers=None, **extra):
        super().__init__("%d %s: %s" % (status, errcode, error))
        self.status = status
        self.errcode = errcode
        self.error = error
        self.headers = headers or {}
        self.extra = extra

    def body(self):
        d = {} if self.errcode is None else {"errcode": self.errcode, "error": self.error}
        d.update(self.extra)  # errcode None: a user-interactive auth's first answer
        return d


class Aborted(Exception):
    """A long poll was cut short by a server stop or restart."""


def forbidden(msg):
    return MatrixError(403, "M_FORBIDDEN", msg)


def not_found(msg):
    return MatrixError(404, "M_NOT_FOUND", msg)


def bad_request(msg, errcode="M_UNKNOWN"):
    return MatrixError(400, errcode, msg)


def canonical_json(value):
    """Matrix canonical JSON as bytes: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def check_canonical(value):
    """Refuses, like Synapse, values canonical JSON cannot carry: floats and
    integers outside +-(2**53 - 1)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, float):
        raise bad_request("Bad JSON value: float", "M_BAD_JSON")
    if isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise bad_request("JSON integer out of range", "M_BAD_JSON")
        return
    if isinstance(value, dict):
        for v in value.values():
            check_canonical(v)
    elif isinstance(value, list):
        for v in value:
            check_canonical(v)


def now_ms():
    return int(time.time() * 1000)


def _letters(n):
    return "".join(secrets.choice(string.ascii_letters) for _ in range(n))


def new_event_id():
    return "$" + base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()


def _deep(value):
    """An independent copy of a JSON value."""
    return copy.deepcopy(value)


def valid_user_id(user_id):
    return (isinstance(user_id, str) and user_id.startswith("@") and ":" in user_id
            and len(user_id) <= 255)


class RateLimiter:
    """Synapse's ratelimiter (synapse/api/ratelimiting.py): per key, a count
    of actions that leaks away at per_second; an action is refused when the
    count still owed exceeds burst_count - 1. The refusal carries
    retry_after_ms and a Retry-After header (seconds, rounded up)."""

    def __init__(self, name, per_second, burst_count):
        self.name = name
        self.per_second = float(per_second)
        self.burst_count = int(burst_count)
        self._actions = {}  # key -> (action_count, time_start)

    def check(self, key, update=True, now=None):
        now = time.time() if now is None else now
        count, start = self._actions.get(key, (0.0, now))
        performed = count - (now - start) * self.per_second
        if performed < 0:
            count, start = 0.0, now
            performed = 0
        allowed = performed <= self.burst_count - 1
        if allowed:
            count += 1
            if update:
                self._actions[key] = (count, start)
        if allowed:
            return
        if self.per_second > 0:
            time_allowed = max(now, start + (count - self.burst_count + 1) / self.per_second)
        else:
            time_allowed = now + 3600
        retry_ms = int(1000 * (time_allowed - now))
        raise MatrixError(429, "M_LIMIT_EXCEEDED", "Too Many Requests",
                          headers={"Retry-After": str(math.ceil(retry_ms / 1000))},
                          retry_after_ms=retry_ms)


class Event:
    """One room event, as stored. content is private to the event."""

    __slots__ = ("event_id", "room_id", "sender", "type", "state_key", "content",
                 "ts", "pos", "txn", "prev", "redacts", "redacted_by")

    def __init__(self, event_id, room_id, sender, etype, content, state_key, ts, pos,
                 txn=None):
        self.event_id = event_id
        self.room_id = room_id
        self.sender = sender
        self.type = etype
        self.state_key = state_key
        self.content = content
        self.ts = ts
        self.pos = pos
        self.txn = txn          # (device_id, txn_id) when sent with a transaction id
        self.prev = None        # the state event this one replaced
        self.redacts = None     # m.room.redaction in rooms before v11: the top-level key
        self.redacted_by = None  # the redaction event that pruned this one

    @property
    def key(self):
        return (self.type, self.state_key)

    def client(self, now, viewer=None, device=None, room_id=True, membership=None):
        """The event in the client-server format. unsigned.transaction_id only
        for the sender's own device (Synapse keys it by device)."""
        d = {"content": _deep(self.content), "event_id": self.event_id,
             "origin_server_ts": self.ts, "sender": self.sender, "type": self.type,
             "unsigned": {"age": max(0, now - self.ts)}}
        if room_id:
            d["room_id"] = self.room_id
        if self.state_key is not None:
            d["state_key"] = self.state_key
            if self.prev is not None:
                d["unsigned"]["replaces_state"] = self.prev.event_id
                d["unsigned"]["prev_content"] = _deep(self.prev.content)
        if (self.txn and viewer == self.sender and device is not None
                and self.txn[0] == device):
            d["unsigned"]["transaction_id"] = self.txn[1]
        if membership is not None:
            d["unsigned"]["membership"] = membership
        if self.redacts is not None:
            d["redacts"] = self.redacts
        if self.redacted_by is not None:
            d["unsigned"]["redacted_because"] = self.redacted_by.client(now, room_id=False)
        return d

    def stripped(self):
        return {"content": _deep(self.content), "sender": self.sender,
                "state_key": self.state_key, "type": self.type}


class Room:
    """A room: its events in stream order and the state they make."""

    def __init__(self, room_id, version):
        self.room_id = room_id
        self.version = version
        self.events = []
        self.state = {}       # (type, state_key) -> Event, current
        self.state_log = []   # state events in order
        self.members = {}     # user_id -> [(pos, membership)]

    def add(self, ev):
        self.events.append(ev)
        if ev.state_key is not None:
            ev.prev = self.state.get(ev.key)
            self.state[ev.key] = ev
            self.state_log.append(ev)
            if ev.type == "m.room.member":
                self.members.setdefault(ev.state_key, []).append(
                    (ev.pos, ev.content.get("membership")))

    def content(self, etype, key=""):
        ev = self.state.get((etype, key))
        return ev.content if ev is not None else None

    def state_at(self, pos):
        """{(type, key): Event} after every event up to pos."""
        out = {}
        for ev in self.state_log:
            if ev.pos > pos:
                break
            out[ev.key] = ev
        return out

    def value_at(self, etype, pos, key=""):
        """The content of one state entry after every event up to pos."""
        found = None
        for ev in self.state_log:
            if ev.pos > pos:
                break
            if ev.type == etype and ev.state_key == key:
                found = ev
        return found.content if found is not None else None

    def membership(self, user_id):
        log = self.members.get(user_id)
        return log[-1][1] if log else None

    def membership_at(self, user_id, pos):
        log = self.members.get(user_id)
        if not log or pos is None:
            return None
        i = bisect.bisect_right(log, (pos, "\uffff"))
        return log[i - 1][1] if i else None

    def joined(self):
        return [u for u, log in self.members.items() if log[-1][1] == "join"]

    def power_levels(self):
        return self.content("m.room.power_levels") or {}

    def user_level(self, user_id):
        pl = self.power_levels()
        if not pl:
            create = self.state.get(("m.room.create", ""))
            return 100 if create is not None and create.sender == user_id else 0
        return int(pl.get("users", {}).get(user_id, pl.get("users_default", 0)))

    def send_level(self, etype, is_state):
        pl = self.power_levels()
        if etype in pl.get("events", {}):
            return int(pl["events"][etype])
        if is_state:
            return int(pl.get("state_default", 50 if pl else 0))
        return int(pl.get("events_default", 0))

    def action_level(self, action):
        pl = self.power_levels()
        return int(pl.get(action, 0 if action == "invite" else 50))


class EventFilter:
    """A RoomEventFilter / EventFilter of the filtering API."""

    def __init__(self, js, default_limit=None):
        js = js or {}
        self.types = js.get("types")
        self.not_types = js.get("not_types", [])
        self.senders = js.get("senders")
        self.not_senders = js.get("not_senders", [])
        self.rooms = js.get("rooms")
        self.not_rooms = js.get("not_rooms", [])
        limit = js.get("limit", default_limit)
        if limit is not None:
            limit = max(0, min(int(limit), FILTER_TIMELINE_LIMIT))
        self.limit = limit

    @staticmethod
    def _any(patterns, value):
        return any(fnmatch.fnmatchcase(value, p) for p in patterns)

    def match_type(self, etype):
        if self._any(self.not_types, etype):
            return False
        return self.types is None or self._any(self.types, etype)

    def match(self, ev):
        if not self.match_type(ev.type):
            return False
        if ev.sender in self.not_senders or ev.room_id in self.not_rooms:
            return False
        if self.senders is not None and ev.sender not in self.senders:
            return False
        return self.rooms is None or ev.room_id in self.rooms


class Filter:
    """A whole filter definition, validated the way Synapse's JSON schema
    would refuse it (400 M_BAD_JSON)."""

    def __init__(self, js, timeline_limit):
        validate_filter(js)
        self.json = js
        room = js.get("room", {})
        self.rooms = room.get("rooms")
        self.not_rooms = room.get("not_rooms", [])
        self.include_leave = bool(room.get("include_leave", False))
        self.timeline = EventFilter(room.get("timeline"), timeline_limit)
        self.state = EventFilter(room.get("state"))
        self.ephemeral = EventFilter(room.get("ephemeral"))
        self.room_account_data = EventFilter(room.get("account_data"))
        self.account_data = EventFilter(js.get("account_data"))
        self.presence = EventFilter(js.get("presence"))

    def room_allowed(self, room_id):
        if room_id in self.not_rooms:
            return False
        return self.rooms is None or room_id in self.rooms


def validate_filter(js):
    def fail(what):
        raise bad_request("Invalid filter: %s" % what, "M_BAD_JSON")

    def strings(d, k):
        if k in d and (not isinstance(d[k], list) or
                       not all(isinstance(x, str) for x in d[k])):
            fail("%s must be an array of strings" % k)

    def event_filter(d, where):
        if d is None:
            return
        if not isinstance(d, dict):
            fail("%s must be an object" % where)
        for k in ("types", "not_types", "senders", "not_senders", "rooms", "not_rooms"):
            strings(d, k)
        if "limit" in d and (isinstance(d["limit"], bool) or
                             not isinstance(d["limit"], (int, float))):
            fail("%s.limit must be a number" % where)

    if not isinstance(js, dict):
        fail("not an object")
    for k in ("account_data", "presence"):
        event_filter(js.get(k), k)
    room = js.get("room")
    if room is not None:
        if not isinstance(room, dict):
            fail("room must be an object")
        strings(room, "rooms")
        strings(room, "not_rooms")
        for k in ("timeline", "state", "ephemeral", "account_data"):
            event_filter(room.get(k), "room." + k)
    if "event_format" in js and js["event_format"] not in ("client", "federation"):
        fail("event_format must be client or federation")
    strings(js, "event_fields")


class Account:
    def __init__(self, user_id, password, displayname, admin=False):
        self.user_id = user_id
        self.admin = admin       # a server admin: may call /_synapse/admin
        self.password = password
        self.displayname = displayname
        self.avatar_url = None
        self.devices = {}        # device_id -> {"display_name": ...}
        self.account_data = {}   # type -> (pos, content)
        self.filters = []        # canonical JSON bytes, index = filter id


class Token:
    def __init__(self, token, token_id, user_id, device_id):
        self.token = token
        self.token_id = token_id
        self.user_id = user_id
        self.device_id = device_id
        self.valid = True


def _no_constants(name):
    raise ValueError("non-JSON constant %s" % name)


class HomeserverTimeout(AssertionError):
    """wait_for_event/wait_for_request gave up."""


# Per-thread: whether the current call comes from an HTTP request (rate
# limits apply) or from the test's Python code (they don't).
_request_context = threading.local()


def http_context(on):
    """Marks the calling thread as serving an HTTP request (on) or not."""
    _request_context.http = on


def request_is_http():
    return getattr(_request_context, "http", False)
