"""mxroutes.py -- the client-server API of the Matrix homeserver double:
which paths exist (ROUTES), access-token authentication as Synapse does it
(the Authorization header, or the deprecated access_token query parameter,
never both), request parameters and bodies checked with Synapse's error
answers, and one handler per endpoint translating HTTP to ServerState calls
(mxstate.py). RoutesMixin is part of HomeServer (homeserver.py), which owns
the sockets, the faults and the request log.
"""
import json
import time

from mxpush import default_push_rules
from mxmodel import (DEFAULT_ROOM_VERSION, KNOWN_ROOM_VERSIONS, MAX_UPLOAD_SIZE, MatrixError,
                     bad_request, forbidden, not_found, valid_user_id)

VERSIONS = {
    "versions": ["r0.0.1", "r0.1.0", "r0.2.0", "r0.3.0", "r0.4.0", "r0.5.0", "r0.6.0",
                 "r0.6.1"] + ["v1.%d" % i for i in range(1, 12)],
    "unstable_features": {"org.matrix.msc3970": True},
}

# The routes: method, path under /_matrix/client/{v3,r0} ("{name}" is one
# percent-decoded segment), handler, whether it needs an access token, whether
# an empty body stands for {}.
ROUTES = [
    ("GET", "/login", "login_flows", False, False),
    ("POST", "/login", "login", False, False),
    ("POST", "/logout", "logout", True, True),
    ("POST", "/logout/all", "logout_all", True, True),
    ("GET", "/account/whoami", "whoami", True, False),
    ("GET", "/capabilities", "capabilities", True, False),
    ("POST", "/user/{user}/filter", "filter_create", True, False),
    ("GET", "/user/{user}/filter/{filter_id}", "filter_get", True, False),
    ("GET", "/sync", "sync", True, False),
    ("POST", "/createRoom", "create_room", True, False),
    ("POST", "/rooms/{room}/join", "join", True, True),
    ("POST", "/join/{room}", "join", True, True),
    ("POST", "/rooms/{room}/leave", "leave", True, True),
    ("POST", "/rooms/{room}/invite", "invite", True, False),
    ("POST", "/rooms/{room}/kick", "kick", True, False),
    ("GET", "/rooms/{room}/joined_members", "joined_members", True, False),
    ("GET", "/rooms/{room}/members", "members", True, False),
    ("GET", "/rooms/{room}/state", "state_all", True, False),
    ("GET", "/rooms/{room}/state/{type}", "state_get", True, False),
    ("GET", "/rooms/{room}/state/{type}/{key}", "state_get", True, False),
    ("PUT", "/rooms/{room}/state/{type}", "state_put", True, False),
    ("PUT", "/rooms/{room}/state/{type}/{key}", "state_put", True, False),
    ("PUT", "/rooms/{room}/send/{type}/{txn}", "send", True, False),
    ("PUT", "/rooms/{room}/redact/{event_id}/{txn}", "redact", True, True),
    ("GET", "/rooms/{room}/messages", "messages", True, False),
    ("GET", "/rooms/{room}/event/{event_id}", "event_get", True, False),
    ("PUT", "/rooms/{room}/typing/{user}", "noop", True, False),
    ("POST", "/rooms/{room}/receipt/{rtype}/{event_id}", "noop", True, True),
    ("POST", "/rooms/{room}/read_markers", "noop", True, True),
    ("GET", "/joined_rooms", "joined_rooms", True, False),
    ("GET", "/presence/{user}/status", "presence_get", True, False),
    ("PUT", "/presence/{user}/status", "presence_put", True, False),
    ("GET", "/profile/{user}", "profile", False, False),
    ("GET", "/profile/{user}/displayname", "displayname_get", False, False),
    ("PUT", "/profile/{user}/displayname", "displayname_put", True, False),
    ("GET", "/user/{user}/account_data/{type}", "account_data_get", True, False),
    ("PUT", "/user/{user}/account_data/{type}", "account_data_put", True, False),
    ("GET", "/directory/room/{alias}", "alias_get", False, False),
    ("POST", "/keys/upload", "keys_upload", True, False),
    ("POST", "/keys/query", "keys_query", True, False),
    ("POST", "/keys/claim", "keys_claim", True, False),
    ("POST", "/keys/device_signing/upload", "device_signing_upload", True, False),
    ("POST", "/keys/signatures/upload", "signatures_upload", True, False),
    ("PUT", "/sendToDevice/{type}/{txn}", "send_to_device", True, False),
    ("GET", "/pushrules/", "push_rules", True, False),
    ("GET", "/pushrules/global/", "push_rules_global", True, False),
    ("GET", "/room_keys/version", "room_keys_version", True, False),
]
# a trailing slash is part of the path: Synapse answers GET /pushrules/, not
# GET /pushrules
_ROUTES = [(m, tuple(p[1:].split("/")), h, a, e) for m, p, h, a, e in ROUTES]
_CLIENT_PREFIXES = (("_matrix", "client", "v3"), ("_matrix", "client", "r0"))


class RoutesMixin:
    """Routing, authentication and the endpoint handlers of HomeServer."""

    def _route(self, req):
        seg = req.segments
        if req.method == "OPTIONS":
            return 200, {}, {}
        if seg == ["_matrix", "client", "versions"]:
            if req.method != "GET":
                raise MatrixError(405, "M_UNRECOGNIZED", "Unrecognized request")
            return 200, VERSIONS, {}
        if seg[:2] == ["_matrix", "media"] and len(seg) == 4 and seg[2] in ("v3", "r0") \
                and seg[3] == "config":
            if req.method != "GET":
                raise MatrixError(405, "M_UNRECOGNIZED", "Unrecognized request")
            self._auth(req)
            return 200, {"m.upload.size": MAX_UPLOAD_SIZE}, {}
        if seg[:4] == ["_synapse", "admin", "v1", "users"] and len(seg) == 6 and \
                seg[5] == "override_ratelimit":
            return self._admin_override_ratelimit(req, seg[4])
        if len(seg) < 3 or tuple(seg[:3]) not in _CLIENT_PREFIXES:
            raise MatrixError(404, "M_UNRECOGNIZED", "Unrecognized request")
        rest = seg[3:]
        wrong_method = False
        for method, pattern, handler, needs_auth, empty_ok in _ROUTES:
            params = _match(pattern, rest)
            if params is None:
                continue
            if method != req.method:
                wrong_method = True
                continue
            token = self._auth(req) if needs_auth else None
            with self.lock:
                self.counters["%s %s" % (method, handler)] += 1
            if req.method in ("POST", "PUT"):
                req.json = self._json_body(req, empty_ok)
            result = getattr(self, "_h_" + handler)(req, token, params)
            if isinstance(result, tuple):
                return result[0], result[1], {}
            return 200, result, {}
        raise MatrixError(405 if wrong_method else 404, "M_UNRECOGNIZED",
                          "Unrecognized request")

    def _admin_override_ratelimit(self, req, user_id):
        """Synapse's admin API /_synapse/admin/v1/users/{user}/override_ratelimit:
        a server admin's token only (403 M_FORBIDDEN "You are not a server
        admin" otherwise); a local user; GET the override ({} when none),
        POST {"messages_per_second", "burst_count"} to set it, DELETE to
        remove it."""
        if req.method not in ("GET", "POST", "DELETE"):
            raise MatrixError(405, "M_UNRECOGNIZED", "Unrecognized request")
        token = self._auth(req)
        with self.lock:
            admin = self._accounts[token.user_id].admin
        if not admin:
            raise MatrixError(403, "M_FORBIDDEN", "You are not a server admin")
        if not valid_user_id(user_id) or not user_id.endswith(":" + self.server_name):
            raise bad_request("Only local users can be ratelimited")
        with self.lock:
            known = user_id in self._accounts
        if not known:
            raise not_found("User does not exist")
        if req.method == "GET":
            return 200, self.ratelimit_override(user_id) or {}, {}
        if req.method == "DELETE":
            self.delete_ratelimit_override(user_id)
            return 200, {}, {}
        body = self._json_body(req, True)
        for name in ("messages_per_second", "burst_count"):
            v = body.get(name, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise bad_request("%r parameter must be a positive int" % name,
                                  "M_INVALID_PARAM")
        return 200, self.override_ratelimit(user_id, body.get("messages_per_second", 0),
                                            body.get("burst_count", 0)), {}

    def _auth(self, req):
        auth = req.headers.get_all("Authorization") or []
        qtok = req.query_lists.get("access_token")
        if auth:
            if qtok is not None:
                raise MatrixError(401, "M_MISSING_TOKEN", "Mixing Authorization headers "
                                  "and access_token query parameters.")
            if len(auth) > 1:
                raise MatrixError(401, "M_MISSING_TOKEN", "Too many Authorization headers.")
            parts = auth[0].split(" ")
            if parts[0] != "Bearer" or len(parts) != 2:
                raise MatrixError(401, "M_MISSING_TOKEN", "Invalid Authorization header.")
            token, via = parts[1], "header"
        elif qtok:
            token, via = qtok[0], "query"
        else:
            raise MatrixError(401, "M_MISSING_TOKEN", "Missing access token")
        with self.lock:
            req.entry["auth"] = via
            t = self._tokens.get(token)
            req.entry["token_id"] = t.token_id if t is not None else "unknown"
        t = self.authenticate(token)
        with self.lock:
            req.entry["user"] = t.user_id
            req.entry["device"] = t.device_id
        return t

    @staticmethod
    def _json_body(req, empty_ok):
        if not req.body.strip():
            if empty_ok:
                return {}
            raise bad_request("Content not JSON.", "M_NOT_JSON")
        try:
            value = json.loads(req.body.decode("utf-8"), parse_constant=_no_constant)
        except ValueError:
            raise bad_request("Content not JSON.", "M_NOT_JSON") from None
        if not isinstance(value, dict):
            raise bad_request("Content must be a JSON object.", "M_BAD_JSON")
        return value

    @staticmethod
    def _int_param(req, name, default):
        if name not in req.query:
            return default
        try:
            value = int(req.query[name])
        except ValueError:
            raise bad_request("Query parameter %s must be an integer" % name,
                              "M_INVALID_PARAM") from None
        if value < 0:
            raise bad_request("Query parameter %s must be a positive integer." % name,
                              "M_INVALID_PARAM")
        return value

    @staticmethod
    def _bool_param(req, name, default):
        if name not in req.query:
            return default
        value = req.query[name]
        if value not in ("true", "false"):
            raise bad_request("Boolean query parameter %r must be one of ['true', 'false']"
                              % name, "M_INVALID_PARAM")
        return value == "true"

    def _own(self, token, user, what):
        if user != token.user_id:
            raise forbidden("Cannot %s for other users" % what)

    # -- handlers (token: mxmodel.Token; p: the path's parameters) ----------------

    def _h_login_flows(self, req, token, p):
        return self.login_flows()

    def _h_login(self, req, token, p):
        return self.login(req.json)

    def _h_logout(self, req, token, p):
        self.revoke_token(token.token)
        self.delete_device(token.user_id, token.device_id)  # as Synapse: keys and all
        return {}

    def _h_logout_all(self, req, token, p):
        self.revoke_tokens(token.user_id)
        return {}

    def _h_whoami(self, req, token, p):
        return {"user_id": token.user_id, "device_id": token.device_id, "is_guest": False}

    def _h_capabilities(self, req, token, p):
        return {"capabilities": {
            "m.change_password": {"enabled": self.password_login},
            "m.room_versions": {"default": DEFAULT_ROOM_VERSION,
                                "available": {v: "stable" for v in KNOWN_ROOM_VERSIONS}},
            "m.set_displayname": {"enabled": True}}}

    def _h_filter_create(self, req, token, p):
        self._own(token, p["user"], "create filters")
        return {"filter_id": self.create_filter(token.user_id, req.json)}

    def _h_filter_get(self, req, token, p):
        self._own(token, p["user"], "get filters")
        return self.get_filter(token.user_id, p["filter_id"])

    def _h_sync(self, req, token, p):
        if "from" in req.query:
            raise bad_request("'from' is not a valid query parameter. Did you mean 'since'?")
        timeout = self._int_param(req, "timeout", 0)
        presence = req.query.get("set_presence")
        if presence is not None and presence not in ("offline", "online", "unavailable"):
            raise bad_request("Query parameter 'set_presence' must be one of "
                              "['offline', 'online', 'unavailable']", "M_INVALID_PARAM")
        full_state = self._bool_param(req, "full_state", False)
        gen = req.gen
        return self.sync(token.user_id, since=req.query.get("since"),
                         filter=req.query.get("filter"), full_state=full_state,
                         timeout_ms=timeout, device=token.device_id,
                         abort=lambda: self._generation != gen or self._closing)

    def _h_create_room(self, req, token, p):
        return {"room_id": self.create_room_from_body(token.user_id, req.json)}

    def _h_join(self, req, token, p):
        return {"room_id": self.join(p["room"], token.user_id)}

    def _h_leave(self, req, token, p):
        self.leave(p["room"], token.user_id, req.json.get("reason"))
        return {}

    def _h_invite(self, req, token, p):
        target = req.json.get("user_id")
        if not isinstance(target, str):
            raise bad_request("Missing user_id", "M_MISSING_PARAM")
        self.invite(p["room"], token.user_id, target)
        return {}

    def _h_kick(self, req, token, p):
        target = req.json.get("user_id")
        if not isinstance(target, str):
            raise bad_request("Missing user_id", "M_MISSING_PARAM")
        self.kick(p["room"], token.user_id, target, req.json.get("reason"))
        return {}

    def _h_joined_members(self, req, token, p):
        with self.lock:
            state = self.room_state_for(token.user_id, p["room"])
            joined = {}
            for (etype, key), ev in state.items():
                if etype == "m.room.member" and ev.content.get("membership") == "join":
                    joined[key] = {"display_name": ev.content.get("displayname"),
                                   "avatar_url": ev.content.get("avatar_url")}
            return {"joined": joined}

    def _h_members(self, req, token, p):
        """Every m.room.member state event (invited members included), kept
        or dropped by `membership` (only that one) and `not_membership`
        (all but that one) as Synapse's RoomMemberListRestServlet filters
        them: any string is taken and simply compared, none is refused."""
        with self.lock:
            state = self.room_state_for(token.user_id, p["room"])
            want = req.query.get("membership")
            unwanted = req.query.get("not_membership")
            now = int(time.time() * 1000)
            return {"chunk": [ev.client(now, token.user_id)
                              for (etype, _), ev in state.items()
                              if etype == "m.room.member"
                              and (not want or ev.content.get("membership") == want)
                              and (not unwanted
                                   or ev.content.get("membership") != unwanted)]}

    def _h_state_all(self, req, token, p):
        with self.lock:
            now = int(time.time() * 1000)
            return [ev.client(now, token.user_id)
                    for ev in self.room_state_for(token.user_id, p["room"]).values()]

    def _h_state_get(self, req, token, p):
        with self.lock:
            state = self.room_state_for(token.user_id, p["room"])
            ev = state.get((p["type"], p.get("key", "")))
            if ev is None:
                raise not_found("Event not found.")
            return ev.content

    def _h_state_put(self, req, token, p):
        return {"event_id": self.send_event(p["room"], token.user_id, p["type"], req.json,
                                            state_key=p.get("key", ""))}

    def _h_send(self, req, token, p):
        return {"event_id": self.send_txn(token, req.raw_path, p["room"], p["type"], req.json,
                                          p["txn"])}

    def _h_messages(self, req, token, p):
        filt = req.query.get("filter")
        if filt is not None:
            try:
                filt = json.loads(filt, parse_constant=_no_constant)
            except ValueError:
                raise bad_request("Invalid filter JSON", "M_NOT_JSON") from None
        return self.messages(token.user_id, p["room"], req.query.get("from"),
                             req.query.get("dir", "f"), self._int_param(req, "limit", 10),
                             filt)

    def _h_event_get(self, req, token, p):
        return self.get_event(token.user_id, p["room"], p["event_id"])

    def _h_redact(self, req, token, p):
        reason = req.json.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise bad_request("reason must be a string", "M_BAD_JSON")
        return {"event_id": self.redact_txn(token, req.raw_path, p["room"], p["event_id"],
                                            reason, p["txn"])}

    def _h_presence_get(self, req, token, p):
        """Presence is not tracked (as Synapse with presence disabled): everyone
        is "offline", the asker "online"."""
        if not valid_user_id(p["user"]):
            raise bad_request("Invalid user id", "M_INVALID_PARAM")
        with self.lock:
            if p["user"] not in self._accounts:
                raise not_found("Unknown user")
            me = p["user"] == token.user_id
            state = self._presence.get(p["user"], "online" if me else "offline")
        out = {"presence": state, "last_active_ago": 0}
        if state == "online":
            out["currently_active"] = True
        return out

    def _h_presence_put(self, req, token, p):
        if p["user"] != token.user_id:
            raise forbidden("Can only set your own presence state")
        state = req.json.get("presence")
        if state not in ("online", "offline", "unavailable"):
            raise bad_request("Invalid presence state", "M_INVALID_PARAM")
        with self.lock:
            self._presence[p["user"]] = state
        return {}

    def _h_noop(self, req, token, p):
        return {}

    def _h_joined_rooms(self, req, token, p):
        return {"joined_rooms": self.rooms_of(token.user_id)}

    def _h_profile(self, req, token, p):
        if not valid_user_id(p["user"]):
            raise bad_request("Invalid user id", "M_INVALID_PARAM")
        return self.profile(p["user"])

    def _h_displayname_get(self, req, token, p):
        prof = self._h_profile(req, token, p)
        return {"displayname": prof["displayname"]} if "displayname" in prof else {}

    def _h_displayname_put(self, req, token, p):
        if p["user"] != token.user_id:
            raise forbidden("Cannot set another user's displayname")
        name = req.json.get("displayname")
        if not isinstance(name, str):
            raise bad_request("'displayname' must be a string", "M_BAD_JSON")
        self.set_displayname(token.user_id, name)
        return {}

    def _h_account_data_get(self, req, token, p):
        self._own(token, p["user"], "get account data")
        content = self.account_data(token.user_id, p["type"])
        if content is None:
            raise not_found("Account data not found")
        return content

    def _h_account_data_put(self, req, token, p):
        self._own(token, p["user"], "add account data")
        self.set_account_data(token.user_id, p["type"], req.json)
        return {}

    def _h_alias_get(self, req, token, p):
        return {"room_id": self.resolve_alias(p["alias"]), "servers": [self.server_name]}


    def _h_keys_upload(self, req, token, p):
        return self.keys_upload(token, req.json)

    def _h_keys_query(self, req, token, p):
        return self.keys_query(token, req.json)

    def _h_keys_claim(self, req, token, p):
        return self.keys_claim(token, req.json)

    def _h_device_signing_upload(self, req, token, p):
        return self.device_signing_upload(token, req.json)

    def _h_signatures_upload(self, req, token, p):
        return self.signatures_upload(token, req.json)

    def _h_send_to_device(self, req, token, p):
        return self.send_to_device(token, p["type"], p["txn"], req.json)

    def _h_push_rules(self, req, token, p):
        # Synapse's PushRuleRestServlet: an account's rules, here always the
        # defaults (mxpush.py); the double does not store rules
        return default_push_rules(token.user_id)

    def _h_push_rules_global(self, req, token, p):
        return default_push_rules(token.user_id)["global"]

    def _h_room_keys_version(self, req, token, p):
        # Synapse's RoomKeysNewVersionServlet.on_GET when the user has no key
        # backup (the double keeps none): 404 M_NOT_FOUND "No backup found"
        raise MatrixError(404, "M_NOT_FOUND", "No backup found")


def _match(pattern, segments):
    if len(pattern) != len(segments):
        return None
    params = {}
    for want, got in zip(pattern, segments):
        if want.startswith("{"):
            params[want[1:-1]] = got
        elif want != got:
            return None
    return params


def _no_constant(name):
    raise ValueError("non-JSON constant %s" % name)
