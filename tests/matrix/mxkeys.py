"""mxkeys.py -- end-to-end encryption's server side in the Matrix homeserver
double, as Synapse answers it: device keys, one-time and fallback keys
(/keys/upload, /keys/claim), their query (/keys/query, with cross-signing
keys and the signatures others uploaded), cross-signing keys
(/keys/device_signing/upload behind user-interactive auth by password),
/keys/signatures/upload, to-device messages (PUT /sendToDevice/{type}/{txn},
idempotent per device and transaction id), and what /sync says of them:
to_device per device, device_lists.changed/left,
device_one_time_keys_count and device_unused_fallback_key_types.

The server never reads encrypted payloads, as a real one cannot. It does
not check signatures (Synapse checks that a self-signing key is signed by
the master key; the tests check every signature on the clients' side with
python3-olm).

KeysMixin is part of ServerState (mxstate.py): its methods run under the
lock and raise MatrixError as Synapse would.
"""
import copy
import secrets

from mxmodel import MatrixError, bad_request, now_ms

OTK_ALGORITHM = "signed_curve25519"


class KeysMixin:
    """The keys half of ServerState's API. Public helpers for the tests:
    device_keys_of(user, device), one_time_key_count(user, device),
    cross_signing_of(user), to_device_log, tamper_device_keys(...)."""

    def _keys_init(self, xsign_uia="always"):
        if xsign_uia not in ("always", "replace"):
            raise ValueError("xsign_uia: 'always' or 'replace'")
        self.xsign_uia = xsign_uia     # "replace": a first upload needs no auth (MSC3967)
        self._device_keys = {}         # (user, device) -> device_keys object
        self._otks = {}                # (user, device) -> {key_id: key object}, upload order
        self._fallback = {}            # (user, device) -> [key_id, key object, used]
        self._xsign = {}               # user -> {"master"|"self_signing"|"user_signing": key}
        self._extra_sigs = {}          # (user, key_or_device) -> {signer: {key_id: sig}}
        self._device_changes = []      # (pos, user): device keys or cross-signing changed
        self._to_device = []           # (pos, user, device, event)
        self._to_device_txns = {}      # (user, device, type, txn) -> True
        self._uia_sessions = {}        # session -> user
        self.to_device_log = []        # every message put: sender, type, target, device

    # -- helpers for tests -------------------------------------------------

    def device_keys_of(self, user, device):
        with self.lock:
            dk = self._device_keys.get((self.user_id(user), device))
            return copy.deepcopy(dk)

    def one_time_key_count(self, user, device):
        with self.lock:
            return len(self._otks.get((self.user_id(user), device), {}))

    def cross_signing_of(self, user):
        with self.lock:
            return copy.deepcopy(self._xsign.get(self.user_id(user), {}))

    def tamper_device_keys(self, user, device, key=None):
        """Replaces a device's curve25519 key without a new signature (what a
        malicious server would do); key defaults to a made-up one."""
        with self.lock:
            uid = self.user_id(user)
            dk = self._device_keys[(uid, device)]
            dk["keys"]["curve25519:" + device] = key or "A" * 43
            self._device_changed(uid)

    def delete_device(self, user, device):
        """A device goes (logout, as Synapse deletes it): its keys, one-time
        and fallback keys and to-device inbox with it; the users sharing a
        room with its owner see it in device_lists.changed."""
        with self.lock:
            uid = self.user_id(user)
            acct = self._accounts.get(uid)
            if acct is None or device not in acct.devices:
                return
            del acct.devices[device]
            had_keys = self._device_keys.pop((uid, device), None) is not None
            self._otks.pop((uid, device), None)
            self._fallback.pop((uid, device), None)
            if had_keys:
                self._device_changed(uid)

    # -- device changes ------------------------------------------------------

    def _device_changed(self, user):
        self._device_changes.append((self._advance(), user))
        self._notify()

    def _shares_room(self, a, b):
        return any(r.membership(a) == "join" and r.membership(b) == "join"
                   for r in self._rooms.values())

    def _device_lists(self, user, since_pos):
        """device_lists for an incremental sync: users sharing a room whose
        keys changed, or who joined a shared room, since since_pos
        ("changed"); users who left the last shared room ("left")."""
        changed, left = set(), set()
        for pos, u in self._device_changes:
            if pos > since_pos and (u == user or self._shares_room(user, u)):
                changed.add(u)
        for room in self._rooms.values():
            if room.membership(user) != "join":
                continue
            for ev in room.state_log:
                if ev.pos <= since_pos or ev.type != "m.room.member":
                    continue
                target = ev.state_key
                if target == user:
                    if ev.content.get("membership") == "join":
                        changed.update(u for u in room.joined() if u != user)
                    continue
                if room.membership(target) == "join":
                    changed.add(target)
                elif not self._shares_room(user, target):
                    left.add(target)
        return sorted(changed - left), sorted(left)

    def _sync_keys(self, user, device, since_pos, top):
        """The sync body's keys fields, and whether any is news."""
        key = (user, device)
        counts = {OTK_ALGORITHM: len(self._otks.get(key, {}))}
        fb = self._fallback.get(key)
        body = {"device_one_time_keys_count": counts,
                "device_unused_fallback_key_types":
                    [OTK_ALGORITHM] if fb is not None and not fb[2] else []}
        news = False
        events = [ev for pos, u, d, ev in self._to_device
                  if u == user and d == device and (since_pos is None or pos > since_pos)
                  and pos <= top]
        if events:
            body["to_device"] = {"events": copy.deepcopy(events)}
            news = True
        if since_pos is not None:
            changed, left = self._device_lists(user, since_pos)
            if changed or left:
                body["device_lists"] = {"changed": changed, "left": left}
                news = True
        return body, news

    # -- /keys/upload --------------------------------------------------------

    def keys_upload(self, token, body):
        with self.lock:
            user, device = token.user_id, token.device_id
            dk = body.get("device_keys")
            if dk is not None:
                if not isinstance(dk, dict) or dk.get("user_id") != user or \
                        dk.get("device_id") != device:
                    raise bad_request("Provided device_keys do not match the user or device",
                                      "M_INVALID_PARAM")
                if not isinstance(dk.get("keys"), dict) or \
                        not isinstance(dk.get("signatures"), dict):
                    raise bad_request("device_keys needs keys and signatures",
                                      "M_INVALID_PARAM")
                old = self._device_keys.get((user, device))
                if old != dk:
                    self._device_keys[(user, device)] = copy.deepcopy(dk)
                    self._device_changed(user)
            otks = body.get("one_time_keys") or {}
            mine = self._otks.setdefault((user, device), {})
            for key_id, k in otks.items():
                if ":" not in key_id:
                    raise bad_request("Invalid one-time key id %s" % key_id)
                if key_id in mine and mine[key_id] != k:
                    raise bad_request("One time key %s already exists. Old key: %s; new key: %s"
                                      % (key_id, mine[key_id], k))
                mine[key_id] = copy.deepcopy(k)
            for key_id, k in (body.get("fallback_keys") or {}).items():
                if ":" not in key_id:
                    raise bad_request("Invalid fallback key id %s" % key_id)
                old = self._fallback.get((user, device))
                if old is None or old[0] != key_id:
                    self._fallback[(user, device)] = [key_id, copy.deepcopy(k), False]
            self.counters["keys_uploaded"] += 1
            return {"one_time_key_counts": {OTK_ALGORITHM: len(mine)}}

    # -- /keys/query -----------------------------------------------------------

    def _with_sigs(self, user, ident, obj):
        obj = copy.deepcopy(obj)
        for signer, sigs in self._extra_sigs.get((user, ident), {}).items():
            obj.setdefault("signatures", {}).setdefault(signer, {}).update(sigs)
        return obj

    def keys_query(self, token, body):
        with self.lock:
            want = body.get("device_keys")
            if not isinstance(want, dict):
                raise bad_request("Missing device_keys", "M_BAD_JSON")
            out = {"device_keys": {}, "failures": {}, "master_keys": {},
                   "self_signing_keys": {}, "user_signing_keys": {}}
            for user, devices in want.items():
                if not isinstance(devices, list):
                    raise bad_request("device_keys values must be lists", "M_BAD_JSON")
                mine = {}
                for (u, d), dk in self._device_keys.items():
                    if u != user or (devices and d not in devices):
                        continue
                    acct = self._accounts.get(u)
                    dev = acct.devices.get(d) if acct is not None else None
                    if dev is None:
                        continue
                    k = self._with_sigs(u, d, dk)
                    k["unsigned"] = {"device_display_name": dev.get("display_name") or d}
                    mine[d] = k
                out["device_keys"][user] = mine
                xs = self._xsign.get(user, {})
                if "master" in xs:
                    pub = _pub(xs["master"])
                    out["master_keys"][user] = self._with_sigs(user, pub, xs["master"])
                if "self_signing" in xs:
                    out["self_signing_keys"][user] = copy.deepcopy(xs["self_signing"])
                if "user_signing" in xs and user == token.user_id:
                    out["user_signing_keys"][user] = copy.deepcopy(xs["user_signing"])
            self.counters["keys_queried"] += 1
            return out

    # -- /keys/claim -----------------------------------------------------------

    def keys_claim(self, token, body):
        with self.lock:
            want = body.get("one_time_keys")
            if not isinstance(want, dict):
                raise bad_request("Missing one_time_keys", "M_BAD_JSON")
            out = {"one_time_keys": {}, "failures": {}}
            for user, devices in want.items():
                for device, alg in (devices or {}).items():
                    key = (user, device)
                    otks = self._otks.get(key, {})
                    got = None
                    for key_id in list(otks):
                        if key_id.split(":", 1)[0] == alg:
                            got = {key_id: otks.pop(key_id)}
                            break
                    if got is None:
                        fb = self._fallback.get(key)
                        if fb is not None and fb[0].split(":", 1)[0] == alg:
                            got = {fb[0]: copy.deepcopy(fb[1])}
                            fb[2] = True
                            self.counters["fallback_claimed"] += 1
                    if got is not None:
                        out["one_time_keys"].setdefault(user, {})[device] = got
                        self._notify()
            self.counters["keys_claimed"] += 1
            return out

    # -- cross-signing -----------------------------------------------------------

    def _uia(self, token, auth):
        """User-interactive auth by password, as Synapse's check_ui_auth does it:
        no auth dict, 401 with the flows and a new session; an auth dict without
        a session starts one and is checked at once (Element's and the js-sdk's
        bootstrapCrossSigning send the password straight away); an unknown
        session 400 "Unknown session ID"; a wrong password 401 M_FORBIDDEN."""
        flows = {"flows": [{"stages": ["m.login.password"]}], "params": {}}
        if not isinstance(auth, dict) or not auth:
            session = secrets.token_hex(12)
            self._uia_sessions[session] = token.user_id
            raise MatrixError(401, None, None, session=session, **flows)
        session = auth.get("session")
        if not session:
            session = secrets.token_hex(12)
            self._uia_sessions[session] = token.user_id
        elif self._uia_sessions.get(session) != token.user_id:
            raise bad_request("Unknown session ID: %s" % session)
        ident = auth.get("identifier") or {}
        who = ident.get("user") or auth.get("user")
        acct = self._accounts.get(token.user_id)
        if auth.get("type") != "m.login.password" or who is None or \
                self.user_id(who) != token.user_id or acct.password is None or \
                auth.get("password") != acct.password:
            self.counters["uia_failed"] += 1
            raise MatrixError(401, "M_FORBIDDEN", "Invalid username or password",
                              session=session, completed=[], **flows)
        del self._uia_sessions[session]

    def device_signing_upload(self, token, body):
        with self.lock:
            user = token.user_id
            have = self._xsign.get(user, {})
            if self.xsign_uia == "always" or have:
                self._uia(token, body.get("auth"))
            new = dict(have)
            for name in ("master", "self_signing", "user_signing"):
                k = body.get(name + "_key")
                if k is None:
                    continue
                if not isinstance(k, dict) or k.get("user_id") != user or \
                        name not in (k.get("usage") or []) or len(k.get("keys") or {}) != 1:
                    raise bad_request("Invalid %s key" % name, "M_INVALID_PARAM")
                new[name] = copy.deepcopy(k)
            if "master" not in new:
                raise bad_request("Must provide master key", "M_MISSING_PARAM")
            self._xsign[user] = new
            self._device_changed(user)
            self.counters["xsign_uploaded"] += 1
            return {}

    def signatures_upload(self, token, body):
        with self.lock:
            failures = {}
            for user, objs in body.items():
                for ident, obj in (objs or {}).items():
                    sigs = (obj or {}).get("signatures", {}).get(token.user_id)
                    known = (user, ident) in self._device_keys or \
                        _pub(self._xsign.get(user, {}).get("master")) == ident
                    if not known or not isinstance(sigs, dict):
                        failures.setdefault(user, {})[ident] = {
                            "errcode": "M_INVALID_SIGNATURE", "error": "Invalid signature"}
                        continue
                    self._extra_sigs.setdefault((user, ident), {}).setdefault(
                        token.user_id, {}).update(sigs)
                    self._device_changed(user)
            self.counters["signatures_uploaded"] += 1
            return {"failures": failures}

    # -- to-device ---------------------------------------------------------------

    def send_to_device(self, token, etype, txn, body):
        with self.lock:
            key = (token.user_id, token.device_id, etype, txn)
            if key in self._to_device_txns:
                self.counters["to_device_repeats"] += 1
                return {}
            msgs = body.get("messages")
            if not isinstance(msgs, dict):
                raise bad_request("Missing messages", "M_BAD_JSON")
            for user, devices in msgs.items():
                acct = self._accounts.get(user)
                if acct is None or not isinstance(devices, dict):
                    continue
                for device, content in devices.items():
                    targets = list(acct.devices) if device == "*" else [device]
                    for d in targets:
                        if d not in acct.devices:
                            continue
                        ev = {"sender": token.user_id, "type": etype,
                              "content": copy.deepcopy(content)}
                        self._to_device.append((self._advance(), user, d, ev))
                        self.to_device_log.append({"sender": token.user_id, "type": etype,
                                                   "user": user, "device": d,
                                                   "ts": now_ms(),
                                                   "seq": len(self.to_device_log)})
            self._to_device_txns[key] = True
            self._notify()
            self.counters["to_device_sent"] += 1
            return {}


def _pub(key):
    """The public key of a cross-signing key object ("" none)."""
    if not key:
        return ""
    return next(iter(key.get("keys", {}).values()), "")
