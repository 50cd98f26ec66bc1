"""mxstate.py -- the memory and the rules of the Matrix homeserver double.

No HTTP here (that is homeserver.py): one ServerState object, behind one
lock, holds accounts, access tokens and devices, filters, rooms (mxrooms.py),
global account data and the rate limiters, and answers /sync. Every
operation takes the acting user and either succeeds or raises MatrixError
with the HTTP status, errcode and message Synapse would answer, so the HTTP
front and the tests' scripted users go through the same rules.

The stream: one position, incremented by every event and every account-data
change. A sync token names a position ("s<pos>_<8 hex digits>"); the server
remembers every token it issued and refuses any other (400 M_UNKNOWN
"Invalid stream token", Synapse's answer to a malformed token).

/sync, as Synapse computes it for the parts the bot uses: an initial sync
gives every joined room's last `limit` events (filter room.timeline.limit,
default 10) with limited/prev_batch, the state at the start of that
timeline, invited rooms' stripped state, and all global account data; an
incremental sync gives each room's new events (limited, with the gap's state
changes, when more than `limit` arrived), newly joined rooms in full (their
recent timeline, history before the join included, limited), new
invites, rooms left, and changed account data. Empty sections are left out
as Synapse leaves them out. An empty incremental sync waits (long poll) up
to `timeout` ms for something to happen.
"""
import base64
import collections
import json
import re
import secrets
import string
import threading
import time

from mxclient import TIMEOUT
from mxmodel import (DEFAULT_RATE_LIMITS, FILTER_TIMELINE_LIMIT, PREJOIN_STATE_TYPES,
                     Aborted, Account, EventFilter, Filter, HomeserverTimeout, MatrixError,
                     RateLimiter, Token, _deep, _letters, _no_constants, bad_request,
                     canonical_json, forbidden, not_found, now_ms, request_is_http,
                     validate_filter)
from mxkeys import KeysMixin
from mxrooms import RoomsMixin

class ServerState(RoomsMixin, KeysMixin):
    """Everything the homeserver remembers, behind self.lock; self.changed
    (a Condition on that lock) is notified whenever the stream moves.

    The public methods below are the tests' Python API (scripted users act
    through them and get MatrixError exactly as over HTTP); homeserver.py adds
    the HTTP front and the fault injection.
    """

    def __init__(self, server_name="test", timeline_limit=10, password_login=True,
                 rate_limits=None, encrypt_by_default=None, xsign_uia="always"):
        if encrypt_by_default not in (None, "invite", "all"):
            raise ValueError("encrypt_by_default: None, 'invite' or 'all'")
        self.encrypt_by_default = encrypt_by_default
        self.server_name = server_name
        self.timeline_limit = timeline_limit
        self.password_login = password_login
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.counters = collections.Counter()
        self.transactions = []      # every PUT /send with a txn id, repeats too
        self.filter_posts = []      # every POST /filter: user, filter, id, new
        self._pos = 0
        self._accounts = {}
        self._tokens = {}
        self._token_seq = 0
        self._login_tokens = {}
        self._rooms = {}            # insertion order = creation order
        self._aliases = {}
        self._sync_tokens = {}      # token -> stream position
        self._txn_cache = {}        # (path, user, device) -> event id
        self._duplicate = []        # [user_id or None, remaining]
        self._limiters = {}
        self._overrides = {}        # user_id -> (messages_per_second, burst_count)
        self._override_limiters = {}  # user_id -> its message RateLimiter
        self._presence = {}         # user_id -> "online" | "offline" | "unavailable"
        self._keys_init(xsign_uia)
        limits = dict(DEFAULT_RATE_LIMITS)
        limits.update(rate_limits or {})
        for name, value in limits.items():
            self.set_rate_limit(name, *(value or (None,)))

    # -- accounts and tokens -----------------------------------------------

    def user_id(self, user):
        """A full user id from a localpart or a full id."""
        if user.startswith("@"):
            return user
        return "@%s:%s" % (user, self.server_name)

    def register(self, user, password=None, displayname=None, admin=False):
        """Creates an account (localpart or full id); its display name
        defaults to the localpart, as Synapse's registration does; admin: a
        server admin. Returns the user id."""
        user_id = self.user_id(user)
        with self.lock:
            if user_id in self._accounts:
                raise MatrixError(400, "M_USER_IN_USE", "User ID already taken.")
            if not user_id.endswith(":" + self.server_name):
                raise bad_request("Can only register local users")
            local = user_id[1:].split(":", 1)[0]
            self._accounts[user_id] = Account(
                user_id, password, local if displayname is None else displayname, admin)
        return user_id

    def _account(self, user):
        acct = self._accounts.get(self.user_id(user))
        if acct is None:
            raise not_found("Profile was not found")
        return acct

    def _new_device_id(self):
        return "".join(secrets.choice(string.ascii_uppercase) for _ in range(10))

    def _issue_token(self, acct, device_id=None, initial_device_display_name=None):
        """A new access token for a device (a new device unless device_id is
        given). Like the spec says for login, logging in again with a known
        device_id invalidates that device's older tokens."""
        device_id = device_id or self._new_device_id()
        if device_id in acct.devices:
            for t in self._tokens.values():
                if t.user_id == acct.user_id and t.device_id == device_id:
                    t.valid = False
        acct.devices.setdefault(device_id, {"display_name": initial_device_display_name})
        self._token_seq += 1
        local = acct.user_id[1:].split(":", 1)[0]
        encoded = base64.urlsafe_b64encode(local.encode()).decode().rstrip("=")
        token = "syt_%s_%s_%s" % (encoded, _letters(20), _letters(6))
        self._tokens[token] = Token(token, "tok%d" % self._token_seq, acct.user_id, device_id)
        return self._tokens[token]

    def token_for(self, user, device_id=None):
        """A ready access token for user (for a bot configured with a token
        instead of a password). A new device unless device_id is given."""
        with self.lock:
            return self._issue_token(self._account(user), device_id).token

    def login_token_for(self, user):
        """A one-use token for POST /login with type m.login.token."""
        with self.lock:
            acct = self._account(user)
            tok = "syl_" + _letters(20)
            self._login_tokens[tok] = acct.user_id
            return tok

    def revoke_token(self, token):
        """Invalidates one access token (as a logout or an admin would): the
        next request with it gets 401 M_UNKNOWN_TOKEN."""
        with self.lock:
            t = self._tokens.get(token)
            if t is not None:
                t.valid = False

    def revoke_tokens(self, user):
        """Invalidates every access token of user."""
        with self.lock:
            uid = self.user_id(user)
            for t in self._tokens.values():
                if t.user_id == uid:
                    t.valid = False

    def token_info(self, token):
        """(user_id, device_id, token_id, valid) of a token, or None."""
        with self.lock:
            t = self._tokens.get(token)
            return None if t is None else (t.user_id, t.device_id, t.token_id, t.valid)

    def devices_of(self, user):
        with self.lock:
            return sorted(self._account(user).devices)

    def authenticate(self, token):
        """The Token behind an access token; 401 M_UNKNOWN_TOKEN otherwise."""
        with self.lock:
            t = self._tokens.get(token)
            if t is None or not t.valid:
                raise MatrixError(401, "M_UNKNOWN_TOKEN", "Unrecognised access token",
                                  soft_logout=False)
            return t

    def login(self, body):
        """POST /login, for password and token logins. Returns the response
        body. Rate limited per user by the "login" limiter."""
        with self.lock:
            ltype = body.get("type")
            if not isinstance(ltype, str):
                raise bad_request("Bad parameter: type", "M_INVALID_PARAM")
            if ltype == "m.login.token":
                token = body.get("token")
                uid = self._login_tokens.pop(token, None) if isinstance(token, str) else None
                if uid is None:
                    raise forbidden("Invalid login token")
                acct = self._accounts[uid]
            elif ltype == "m.login.password":
                if not self.password_login:
                    raise bad_request("Password login has been disabled.")
                password = body.get("password")
                if not isinstance(password, str):
                    raise bad_request("Bad parameter: password", "M_INVALID_PARAM")
                ident = body.get("identifier")
                if ident is None and "user" in body:
                    ident = {"type": "m.id.user", "user": body["user"]}
                if not isinstance(ident, dict):
                    raise bad_request("Invalid identifier in login submission",
                                      "M_INVALID_PARAM")
                if ident.get("type") != "m.id.user":
                    raise bad_request("Unknown login identifier type")
                user = ident.get("user")
                if not user or not isinstance(user, str):
                    raise bad_request("User identifier is missing 'user' key")
                uid = self.user_id(user)
                self._limit("login", uid.lower())
                acct = None
                for a in self._accounts.values():
                    if a.user_id.lower() == uid.lower():
                        acct = a
                if acct is None or acct.password is None or acct.password != password:
                    self.counters["login_failed"] += 1
                    raise forbidden("Invalid username or password")
            else:
                raise bad_request("Unknown login type %s" % ltype)
            device_id = body.get("device_id")
            if device_id is not None and not isinstance(device_id, str):
                raise bad_request("Bad parameter: device_id", "M_INVALID_PARAM")
            t = self._issue_token(acct, device_id, body.get("initial_device_display_name"))
            self.counters["login"] += 1
            return {"user_id": acct.user_id, "access_token": t.token,
                    "home_server": self.server_name, "device_id": t.device_id}

    def login_flows(self):
        flows = []
        if self.password_login:
            flows.append({"type": "m.login.password"})
        flows.append({"type": "m.login.token"})
        flows.append({"type": "m.login.application_service"})
        return {"flows": flows}

    # -- rate limiting -----------------------------------------------------

    def set_rate_limit(self, name, per_second, burst_count=1):
        """Sets limiter name ("message": sends, state events and createRoom
        like Synapse's rc_message; "login": per user login attempts; "join";
        "invite"). per_second=None turns it off. Counts start afresh."""
        with self.lock:
            if per_second is None:
                self._limiters.pop(name, None)
            else:
                self._limiters[name] = RateLimiter(name, per_second, burst_count)

    def override_ratelimit(self, user, messages_per_second=None, burst_count=None):
        """Synapse's per-user override (the admin API's override_ratelimit,
        table ratelimit_override): messages_per_second 0 (or None) exempts
        the user from every limiter checked with a requester (messages,
        joins, invitations; not logins, which have none), as Synapse's
        Ratelimiter does; otherwise the message limiter runs at the given
        rate and burst for that user. Returns the stored
        pair, as the admin API answers."""
        user_id = self.user_id(user)
        mps = int(messages_per_second or 0)
        burst = int(burst_count or 0)
        if mps < 0 or burst < 0:
            raise bad_request("%r parameter must be a positive int" %
                              ("messages_per_second" if mps < 0 else "burst_count"),
                              "M_INVALID_PARAM")
        with self.lock:
            self._account(user_id)
            self._overrides[user_id] = (mps, burst)
            if mps > 0:
                self._override_limiters[user_id] = RateLimiter("message", mps, burst)
            else:
                self._override_limiters.pop(user_id, None)
        return {"messages_per_second": mps, "burst_count": burst}

    def ratelimit_override(self, user):
        """The user's override as the admin API's GET answers it, or None."""
        with self.lock:
            o = self._overrides.get(self.user_id(user))
        return None if o is None else {"messages_per_second": o[0], "burst_count": o[1]}

    def delete_ratelimit_override(self, user):
        with self.lock:
            self._overrides.pop(self.user_id(user), None)
            self._override_limiters.pop(self.user_id(user), None)

    def _limit(self, name, key, update=True):
        """Counts one action of key against limiter name. Rate limits apply to
        HTTP requests only: the tests' own Python calls are never limited.
        A user's override (override_ratelimit) comes first, as in Synapse."""
        if not request_is_http():
            return
        lim = self._limiters.get(name)
        # Synapse checks logins with no requester: an override never lifts them
        if name != "login" and key in self._overrides:
            if self._overrides[key][0] == 0:
                return
            if name == "message":
                lim = self._override_limiters[key]
        if lim is None:
            return
        try:
            lim.check(key, update)
        except MatrixError:
            self.counters["rate_limited"] += 1
            self.counters["rate_limited_" + name] += 1
            raise

    # -- stream ------------------------------------------------------------

    def _advance(self):
        self._pos += 1
        return self._pos

    def _notify(self):
        self.changed.notify_all()

    def mark(self):
        """The current stream position, for events(since=...) and
        wait_for_event(since=...)."""
        with self.lock:
            return self._pos

    def _new_sync_token(self, pos):
        token = "s%d_%s" % (pos, secrets.token_hex(4))
        self._sync_tokens[token] = pos
        return token

    def _parse_since(self, since):
        pos = self._sync_tokens.get(since)
        if pos is None:
            raise bad_request("Invalid stream token")
        return pos

    def forget_sync_tokens(self):
        """Forgets every sync token issued so far, as a server restored from
        a backup or moved to a new database would: a /sync with one is then
        400 M_UNKNOWN "Invalid stream token" (Synapse's answer to a token it
        cannot use, StreamToken.from_string), and a sync without since
        starts a client afresh."""
        with self.lock:
            self._sync_tokens.clear()

    # -- account data --------------------------------------------------------

    def _set_account_data(self, acct, etype, content):
        acct.account_data[etype] = (self._advance(), _deep(content))
        self._notify()

    def set_account_data(self, user, etype, content):
        """Global account data of user (m.direct: {user_id: [room_id...]})."""
        with self.lock:
            if not isinstance(content, dict):
                raise bad_request("Content must be a JSON object.", "M_BAD_JSON")
            self._set_account_data(self._account(user), etype, content)

    def account_data(self, user, etype):
        """A copy of user's account data of that type, or None."""
        with self.lock:
            entry = self._account(user).account_data.get(etype)
            return _deep(entry[1]) if entry else None

    def direct_rooms(self, user):
        """user's m.direct account data: {other user: [room ids]} ({} if none)."""
        return self.account_data(user, "m.direct") or {}

    # -- filters -------------------------------------------------------------

    def create_filter(self, user, js):
        """POST /user/{userId}/filter: validates, stores, returns the id (an
        integer as a string from "0" per user; an identical filter gets the id
        it already has, as in Synapse). Every call is recorded in
        filter_posts."""
        with self.lock:
            acct = self._account(user)
            js = dict(js) if isinstance(js, dict) else js
            if isinstance(js, dict):
                room = js.get("room")
                if isinstance(room, dict) and isinstance(room.get("timeline"), dict) \
                        and isinstance(room["timeline"].get("limit"), (int, float)):
                    room = dict(room)
                    room["timeline"] = dict(room["timeline"])
                    room["timeline"]["limit"] = min(room["timeline"]["limit"],
                                                    FILTER_TIMELINE_LIMIT)
                    js["room"] = room
            Filter(js, self.timeline_limit)  # validates
            blob = canonical_json(js)
            new = blob not in acct.filters
            if new:
                acct.filters.append(blob)
            fid = str(acct.filters.index(blob))
            self.filter_posts.append({"user": acct.user_id, "filter": _deep(js),
                                      "filter_id": fid, "new": new})
            self.counters["filters_created"] += 1
            return fid

    def get_filter(self, user, filter_id):
        with self.lock:
            acct = self._account(user)
            try:
                i = int(filter_id)
            except ValueError:
                raise bad_request("Invalid filter_id") from None
            if i < 0 or i >= len(acct.filters):
                raise not_found("No such filter")
            return json.loads(acct.filters[i])

    def filters_of(self, user):
        """The filters user has stored, in id order."""
        with self.lock:
            return [json.loads(b) for b in self._account(user).filters]

    def _resolve_filter(self, acct, spec):
        if spec is None:
            return Filter({}, self.timeline_limit)
        if isinstance(spec, dict):
            return Filter(spec, self.timeline_limit)
        if spec.startswith("{"):
            try:
                js = json.loads(spec, parse_constant=_no_constants)
            except ValueError:
                raise bad_request("Invalid filter JSON", "M_NOT_JSON") from None
            return Filter(js, self.timeline_limit)
        try:
            i = int(spec)
            blob = acct.filters[i] if i >= 0 else None
        except (ValueError, IndexError):
            blob = None
        if blob is None:
            raise bad_request("No such filter", "M_INVALID_PARAM")
        return Filter(json.loads(blob), self.timeline_limit)

    # -- reading (what a user can see) -----------------------------------------

    def _visible(self, room, user, ev):
        if ev.type == "m.room.member" and ev.state_key == user:
            return True
        m = room.membership_at(user, ev.pos)
        if m == "join":
            return True
        hv = (room.value_at("m.room.history_visibility", ev.pos - 1) or {}).get(
            "history_visibility", "shared")
        if hv == "world_readable":
            return True
        if hv == "shared":
            return room.membership(user) == "join"
        if hv == "invited":
            return m == "invite"
        return False

    def events(self, room_id, since=None, as_user=None, type=None, sender=None):
        """Events of a room (client format, with room_id), oldest first: all
        of them, or with stream position > since (from mark()); as_user
        limits them to what that user may see (history visibility and
        membership)."""
        with self.lock:
            room = self._room(room_id)
            now = now_ms()
            viewer = self.user_id(as_user) if as_user else None
            out = []
            for ev in room.events:
                if since is not None and ev.pos <= since:
                    continue
                if type is not None and ev.type != type:
                    continue
                if sender is not None and ev.sender != self.user_id(sender):
                    continue
                if viewer is not None and not self._visible(room, viewer, ev):
                    continue
                out.append(ev.client(now))
            return out

    def wait_for_event(self, room_id, predicate=None, timeout=None, since=None, type=None,
                       sender=None, body=None):
        """Waits for an event of room_id (position > since, from mark()) of
        that type, sender and body (a regular expression searched in
        content.body) for which predicate(event dict) is true; returns it.
        Raises HomeserverTimeout (an AssertionError) after timeout seconds
        (default TIMEOUT), quoting the room's last events."""
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        seen = set()
        with self.lock:
            while True:
                for ev in self.events(room_id, since=since, type=type, sender=sender):
                    if ev["event_id"] in seen:
                        continue
                    seen.add(ev["event_id"])
                    if body is not None and not re.search(
                            body, str(ev["content"].get("body", ""))):
                        continue
                    if predicate is None or predicate(ev):
                        return ev
                left = deadline - time.monotonic()
                if left <= 0:
                    last = self.events(room_id)[-8:]
                    raise HomeserverTimeout(
                        "no matching event in %s within %.1f s; last events:\n%s" % (
                            room_id, TIMEOUT if timeout is None else timeout,
                            "\n".join(json.dumps(e, sort_keys=True)[:300] for e in last)))
                self.changed.wait(left)

    def state(self, room_id, etype, state_key=""):
        """The content of a current state event, or None."""
        with self.lock:
            c = self._room(room_id).content(etype, state_key)
            return _deep(c) if c is not None else None

    def members(self, room_id, membership="join"):
        with self.lock:
            room = self._room(room_id)
            return sorted(u for u in room.members if room.membership(u) == membership)

    def membership(self, room_id, user):
        with self.lock:
            return self._room(room_id).membership(self.user_id(user))

    def rooms_of(self, user, membership="join"):
        """Ids of the rooms where user's membership is that, in creation order."""
        with self.lock:
            uid = self.user_id(user)
            return [r.room_id for r in self._rooms.values() if r.membership(uid) == membership]

    def room_version(self, room_id):
        with self.lock:
            return self._room(room_id).version

    # -- /sync ---------------------------------------------------------------

    def duplicate_next_sync(self, user=None, count=1):
        """Duplicate delivery: the next `count` non-empty incremental syncs (of
        user, or anybody) get a next_batch that points back to their own
        since, so the following sync delivers the same events again."""
        with self.lock:
            self._duplicate.append([self.user_id(user) if user else None, count])

    def _take_duplicate(self, user_id):
        for entry in self._duplicate:
            if entry[0] in (None, user_id) and entry[1] > 0:
                entry[1] -= 1
                if entry[1] == 0:
                    self._duplicate.remove(entry)
                return True
        return False

    def sync(self, user, since=None, filter=None, full_state=False, timeout_ms=0,
             device=None, abort=None):
        """GET /sync for user: since is a next_batch token (None: initial
        sync), filter an id, a JSON string or a dict. An incremental sync
        with nothing to say waits up to timeout_ms for something to happen
        (abort() is polled: true ends the wait with Aborted). device decides
        where unsigned.transaction_id appears. Returns the response body."""
        with self.lock:
            acct = self._account(user)
            filt = self._resolve_filter(acct, filter)
            since_pos = self._parse_since(since) if since is not None else None
            deadline = time.monotonic() + max(0, timeout_ms) / 1000.0
            waited = False
            while True:
                if abort is not None and abort():
                    raise Aborted()
                body, empty = self._sync_once(acct, device, since_pos, filt, full_state)
                left = deadline - time.monotonic()
                if not empty or since_pos is None or full_state or left <= 0:
                    break
                waited = True
                self.changed.wait(min(left, 0.5))
            if waited and not empty:
                self.counters["sync_woken"] += 1
            self.counters["sync"] += 1
            next_pos = self._pos
            if not empty and self._take_duplicate(acct.user_id):
                next_pos = since_pos if since_pos is not None else 0
                self.counters["sync_duplicated"] += 1
            body["next_batch"] = self._new_sync_token(next_pos)
            return body

    def _sync_once(self, acct, device, since_pos, filt, full_state):
        user = acct.user_id
        now = now_ms()
        top = self._pos
        join, invite, leave = {}, {}, {}
        for room in self._rooms.values():
            if not filt.room_allowed(room.room_id):
                continue
            current = room.membership(user)
            if current is None:
                continue
            mev = room.state[("m.room.member", user)]
            if current == "join":
                fresh = since_pos is None or room.membership_at(user, since_pos) != "join"
                if not fresh and not full_state and room.events[-1].pos <= since_pos:
                    continue
                # A room newly joined since `since` is a whole new room to the
                # client, as in Synapse's SyncHandler: its since token is
                # dropped (RoomSyncResultBuilder since_token=None when
                # newly_joined), so the timeline is the room's recent events up
                # to the limit -- those before the join that history visibility
                # lets the user see included, e.g. a hand sent while they were
                # only invited -- with limited true (_load_filtered_recents:
                # limited=limited or newly_joined_room) and the full state.
                entry = self._room_entry(room, user, device, None if fresh else since_pos,
                                         top, filt, fresh or full_state, now,
                                         newly_joined=fresh and since_pos is not None)
                if entry is None:
                    continue
                entry["ephemeral"] = {"events": []}
                entry["unread_notifications"] = {"highlight_count": 0,
                                                 "notification_count": 0}
                entry["summary"] = {}
                join[room.room_id] = entry
            elif current == "invite":
                if since_pos is None or mev.pos > since_pos:
                    invite[room.room_id] = {"invite_state": {
                        "events": self._invite_state(room, mev, now)}}
            elif current in ("leave", "ban"):
                if (since_pos is None and filt.include_leave) or \
                        (since_pos is not None and mev.pos > since_pos):
                    leave[room.room_id] = self._room_entry(
                        room, user, device, since_pos, mev.pos, filt, since_pos is None,
                        now, force=True)
        account_data = [{"type": t, "content": _deep(c)}
                        for t, (pos, c) in sorted(acct.account_data.items(),
                                                  key=lambda kv: kv[1][0])
                        if (since_pos is None or pos > since_pos)
                        and filt.account_data.match_type(t)]
        body, keys_news = self._sync_keys(user, device, since_pos, top)
        if account_data:
            body["account_data"] = {"events": account_data}
        rooms = {}
        for k, v in (("join", join), ("invite", invite), ("leave", leave)):
            if v:
                rooms[k] = v
        if rooms:
            body["rooms"] = rooms
        return body, not rooms and not account_data and not keys_news

    def _room_entry(self, room, user, device, lo, hi, filt, full, now, force=False,
                    newly_joined=False):
        """A joined (or left) room's section: the timeline of the events in
        (lo, hi] the user may see (lo None: from the room's start), at most
        the filter's limit of them (limited and prev_batch when more existed,
        or always when newly_joined); the state at the start of that timeline
        when full, else the state changes in the gap when limited."""
        cand = [ev for ev in room.events
                if (lo is None or ev.pos > lo) and ev.pos <= hi
                and filt.timeline.match(ev) and self._visible(room, user, ev)]
        limit = filt.timeline.limit if filt.timeline.limit is not None else self.timeline_limit
        timeline = cand[max(0, len(cand) - limit):] if limit > 0 else []
        limited = len(cand) > len(timeline) or newly_joined
        if not timeline and not full and not force:
            return None
        start = timeline[0].pos - 1 if timeline else hi
        if full:
            state = sorted(room.state_at(start).values(), key=lambda e: e.pos)
        elif limited:
            gap = {}
            for ev in room.state_log:
                if lo < ev.pos <= start:
                    gap[ev.key] = ev
            state = sorted(gap.values(), key=lambda e: e.pos)
        else:
            state = []
        state = [ev for ev in state if filt.state.match(ev)]
        return {
            "timeline": {
                "events": [ev.client(now, user, device, room_id=False,
                                     membership=room.membership_at(user, ev.pos) or "leave")
                           for ev in timeline],
                "prev_batch": self._new_sync_token(start),
                "limited": limited,
            },
            "state": {"events": [ev.client(now, user, device, room_id=False)
                                 for ev in state]},
            "account_data": {"events": []},
        }

    def _invite_state(self, room, invite_ev, now):
        """Stripped state as Synapse gives an invited user (its
        room_prejoin_state defaults plus the inviter's membership), then the
        invite event itself."""
        at = room.state_at(invite_ev.pos - 1)
        out = [ev.stripped() for ev in sorted(at.values(), key=lambda e: e.pos)
               if ev.type in PREJOIN_STATE_TYPES and ev.state_key == ""]
        inviter = at.get(("m.room.member", invite_ev.sender))
        if inviter is not None:
            out.append(inviter.stripped())
        out.append(invite_ev.client(now, room_id=False))
        return out

    def messages(self, user, room_id, from_token=None, direction="f", limit=10, filter=None):
        """GET /rooms/{roomId}/messages: up to limit events user may see,
        from a token (a sync's prev_batch or next_batch, or a previous
        answer's end) backwards ("b") or forwards ("f", Synapse's default);
        filter is a RoomEventFilter (dict). "end" is left out when there is
        nothing further."""
        with self.lock:
            efilt = None
            if filter is not None:
                validate_filter({"room": {"timeline": filter}})
                efilt = EventFilter(filter)
            user = self.user_id(user)
            room = self._rooms.get(room_id)
            if room is None or room.membership(user) is None:
                raise forbidden("User %s not in room %s, and room previews are disabled"
                                % (user, room_id))
            if direction not in ("b", "f"):
                raise bad_request("Query parameter 'dir' must be one of ['b', 'f']",
                                  "M_INVALID_PARAM")
            if from_token is None:
                pos = self._pos if direction == "b" else 0
            else:
                pos = self._parse_since(from_token)
            if room.membership(user) != "join":
                mine = room.state[("m.room.member", user)].pos
                pos = min(pos, mine) if direction == "b" else pos
            else:
                mine = None
            now = now_ms()
            if direction == "b":
                evs = [e for e in reversed(room.events) if e.pos <= pos]
            else:
                evs = [e for e in room.events if e.pos > pos
                       and (mine is None or e.pos <= mine)]
            evs = [e for e in evs if self._visible(room, user, e)
                   and (efilt is None or efilt.match(e))]
            chunk = evs[:max(0, limit)]
            out = {"chunk": [e.client(now, user) for e in chunk],
                   "start": from_token or self._new_sync_token(pos)}
            if len(evs) > len(chunk) and chunk:
                last = chunk[-1].pos
                out["end"] = self._new_sync_token(last - 1 if direction == "b" else last)
            return out

    def get_event(self, user, room_id, event_id):
        with self.lock:
            user = self.user_id(user)
            room = self._rooms.get(room_id)
            if room is not None:
                for ev in room.events:
                    if ev.event_id == event_id and self._visible(room, user, ev):
                        return ev.client(now_ms(), user)
            raise not_found("Could not find event %s" % event_id)

    def room_state_for(self, user, room_id):
        """The state a member may read ({(type, key): Event}): current state if
        joined, the state at their leave otherwise. Call with the lock held."""
        user = self.user_id(user)
        room = self._rooms.get(room_id)
        m = room.membership(user) if room is not None else None
        if m == "join":
            return room.state
        if m == "leave" and any(x == "join" for _, x in room.members[user]):
            return room.state_at(room.state[("m.room.member", user)].pos)
        raise forbidden("User %s not in room %s, and room previews are disabled"
                        % (user, room_id))
