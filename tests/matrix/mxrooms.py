"""mxrooms.py -- rooms in the Matrix homeserver double: createRoom with
Synapse's presets and event order, membership (join, leave, invite, kick;
invite-only, public and restricted join rules), sending events with the
checks Synapse makes (membership, power levels, the 65536-byte PDU limit,
canonical JSON), transaction ids, display names, and room upgrades.

RoomsMixin is part of ServerState (mxstate.py): every method runs under its
lock and raises MatrixError as Synapse would answer.
"""
import base64
import os

from mxmodel import (DEFAULT_ROOM_VERSION, KNOWN_ROOM_VERSIONS, MAX_PDU_SIZE, PRESETS,
                     Event, MatrixError, Room, _deep, _letters, bad_request,
                     canonical_json, check_canonical, forbidden, new_event_id, not_found,
                     now_ms, valid_user_id)


class RoomsMixin:
    """The room half of ServerState's Python API (see mxstate.py)."""

    # -- rooms -------------------------------------------------------------

    def _room(self, room_id):
        room = self._rooms.get(room_id)
        if room is None:
            raise not_found("Unknown room %s" % room_id)
        return room

    def _append(self, room, sender, etype, content, state_key=None, txn=None,
                event_id=None):
        ev = Event(event_id or new_event_id(), room.room_id, sender, etype, _deep(content),
                   state_key, now_ms(), self._advance(), txn)
        room.add(ev)
        self._notify()
        return ev

    def _pdu_size(self, room, sender, etype, content, state_key):
        """The size Synapse checks against 65536: the whole PDU in canonical
        JSON (auth and prev events, hashes, signatures, depth included)."""
        fake = "$" + "A" * 43
        pdu = {"auth_events": [fake] * 3, "content": content, "depth": len(room.events) + 1,
               "hashes": {"sha256": "A" * 43}, "origin_server_ts": now_ms(),
               "prev_events": [fake], "room_id": room.room_id, "sender": sender,
               "signatures": {self.server_name: {"ed25519:a_AAAA": "A" * 86}},
               "type": etype, "unsigned": {"age_ts": now_ms()}}
        if state_key is not None:
            pdu["state_key"] = state_key
        return len(canonical_json(pdu))

    def _check_send(self, room, sender, etype, content, state_key):
        if room.membership(sender) != "join":
            raise forbidden("User %s not in room %s" % (sender, room.room_id))
        if not isinstance(content, dict):
            raise bad_request("Content must be a JSON object.", "M_BAD_JSON")
        check_canonical(content)
        for what, value in (("type", etype), ("state_key", state_key)):
            if value is not None and len(value) > 255:
                raise MatrixError(413, "M_TOO_LARGE", "'%s' too large" % what)
        if self._pdu_size(room, sender, etype, content, state_key) > MAX_PDU_SIZE:
            raise MatrixError(413, "M_TOO_LARGE", "event too large")
        need = room.send_level(etype, state_key is not None)
        have = room.user_level(sender)
        if have < need:
            raise forbidden("You don't have permission to post that to the room. "
                            "user_level (%d) < send_level (%d)" % (have, need))

    def send_event(self, room_id, user, etype, content, state_key=None, txn=None):
        """Sends an event as user (a state event when state_key is given; an
        m.room.member state event becomes the join, leave or invite it says).
        Returns the event id."""
        with self.lock:
            sender = self.user_id(user)
            if etype == "m.room.member" and state_key is not None:
                return self._membership_from_state(room_id, sender, state_key, content)
            room = self._rooms.get(room_id)
            if room is None:
                raise forbidden("User %s not in room %s" % (sender, room_id))
            self._limit("message", sender, update=False)
            self._check_send(room, sender, etype, content, state_key)
            self._limit("message", sender)
            ev = self._append(room, sender, etype, content, state_key, txn)
            self.counters["events_sent"] += 1
            return ev.event_id

    def send_txn(self, token, path, room_id, etype, content, txn_id):
        """PUT /rooms/{roomId}/send/{type}/{txnId} for an authenticated token:
        idempotent per (request path, user, device) like Synapse's
        HttpTransactionCache -- a repeat returns the first event id and posts
        nothing; a failed attempt is not remembered. Every call is recorded
        in self.transactions."""
        with self.lock:
            key = (path, token.user_id, token.device_id)
            event_id = self._txn_cache.get(key)
            repeat = event_id is not None
            if not repeat:
                event_id = self.send_event(room_id, token.user_id, etype, content,
                                           txn=(token.device_id, txn_id))
                self._txn_cache[key] = event_id
            else:
                self.counters["txn_repeats"] += 1
            self.transactions.append({"user": token.user_id, "device": token.device_id,
                                      "room_id": room_id, "type": etype, "txn_id": txn_id,
                                      "event_id": event_id, "repeat": repeat})
            return event_id

    def redact(self, room_id, user, event_id, reason=None, txn=None):
        """Redacts an event as user, as Synapse does: a member may redact
        their own events, others' need the room's "redact" level (50); the
        m.room.redaction names the event in its content (v11) or at the top
        level (older rooms), and the event's content is pruned (an
        m.room.member keeps its membership). Returns the redaction's id."""
        with self.lock:
            sender = self.user_id(user)
            room = self._rooms.get(room_id)
            if room is None or room.membership(sender) != "join":
                raise forbidden("User %s not in room %s" % (sender, room_id))
            target = next((e for e in room.events if e.event_id == event_id), None)
            if target is None:
                raise not_found("Event not found.")
            pl = room.content("m.room.power_levels") or {}
            if target.sender != sender and room.user_level(sender) < pl.get("redact", 50):
                raise forbidden("You don't have permission to redact events")
            content = {"reason": reason} if reason is not None else {}
            if int(room.version) >= 11:
                content["redacts"] = event_id
            self._limit("message", sender)
            ev = self._append(room, sender, "m.room.redaction", content, txn=txn)
            if int(room.version) < 11:
                ev.redacts = event_id
            if target.redacted_by is None:
                kept = {"membership": target.content.get("membership")} \
                    if target.type == "m.room.member" else {}
                target.content = kept
                target.redacted_by = ev
            return ev.event_id

    def redact_txn(self, token, path, room_id, event_id, reason, txn_id):
        """PUT /rooms/{roomId}/redact/{eventId}/{txnId}: idempotent like sends."""
        with self.lock:
            key = (path, token.user_id, token.device_id)
            if key not in self._txn_cache:
                self._txn_cache[key] = self.redact(room_id, token.user_id, event_id, reason,
                                                   txn=(token.device_id, txn_id))
            return self._txn_cache[key]

    def send_text(self, room_id, user, body, msgtype="m.text", **extra):
        """An m.room.message from a scripted user; returns its event id."""
        content = {"msgtype": msgtype, "body": body}
        content.update(extra)
        return self.send_event(room_id, user, "m.room.message", content)

    def send_notice(self, room_id, user, body):
        return self.send_text(room_id, user, body, msgtype="m.notice")

    def send_encrypted(self, room_id, user):
        """An m.room.encrypted event nobody here can decrypt (Megolm-shaped)."""
        content = {"algorithm": "m.megolm.v1.aes-sha2",
                   "ciphertext": base64.b64encode(os.urandom(96)).decode().rstrip("="),
                   "device_id": "SCRIPTED", "sender_key": _letters(43),
                   "session_id": _letters(43)}
        return self.send_event(room_id, user, "m.room.encrypted", content)

    def set_state(self, room_id, user, etype, content, state_key=""):
        return self.send_event(room_id, user, etype, content, state_key=state_key)

    def _member_content(self, user_id, membership, **extra):
        content = {"membership": membership}
        acct = self._accounts.get(user_id)
        if acct is not None and membership in ("join", "invite"):
            if acct.displayname is not None:
                content["displayname"] = acct.displayname
            if acct.avatar_url is not None:
                content["avatar_url"] = acct.avatar_url
        content.update({k: v for k, v in extra.items() if v is not None})
        return content

    def create_room(self, creator, name=None, topic=None, preset=None, invite=(),
                    is_direct=False, encrypted=False, initial_state=(), alias=None,
                    visibility="private", room_version=None, creation_content=None,
                    power_level_content_override=None):
        """Creates a room the way POST /createRoom does (same events, same
        order as Synapse) and returns its id. encrypted=True adds
        m.room.encryption (m.megolm.v1.aes-sha2) to the initial state."""
        body = {"visibility": visibility, "invite": list(invite), "is_direct": is_direct,
                "initial_state": list(initial_state)}
        for k, v in (("name", name), ("topic", topic), ("preset", preset),
                     ("room_alias_name", alias), ("room_version", room_version),
                     ("creation_content", creation_content),
                     ("power_level_content_override", power_level_content_override)):
            if v is not None:
                body[k] = v
        if encrypted:
            body["initial_state"].append({"type": "m.room.encryption", "state_key": "",
                                          "content": {"algorithm": "m.megolm.v1.aes-sha2"}})
        return self.create_room_from_body(creator, body)

    def create_room_from_body(self, creator, body):
        """POST /createRoom with its JSON body; returns the room id."""
        with self.lock:
            creator = self.user_id(creator)
            self._account(creator)
            if not isinstance(body, dict):
                raise bad_request("Content must be a JSON object.", "M_BAD_JSON")
            check_canonical(body)
            visibility = body.get("visibility", "private")
            if visibility not in ("public", "private"):
                raise bad_request("Invalid visibility value", "M_BAD_JSON")
            preset = body.get("preset") or (
                "public_chat" if visibility == "public" else "private_chat")
            if preset not in PRESETS:
                raise bad_request("Invalid preset", "M_BAD_JSON")
            version = str(body.get("room_version", DEFAULT_ROOM_VERSION))
            if version not in KNOWN_ROOM_VERSIONS:
                raise MatrixError(400, "M_UNSUPPORTED_ROOM_VERSION",
                                  "Your homeserver does not support this room version")
            invitees = body.get("invite", [])
            if not isinstance(invitees, list) or not all(valid_user_id(u) for u in invitees):
                raise bad_request("Invalid user_id in invite", "M_INVALID_PARAM")
            for u in invitees:
                if u not in self._accounts:
                    raise not_found("Profile was not found")
            initial = body.get("initial_state", [])
            if not isinstance(initial, list) or not all(
                    isinstance(e, dict) and isinstance(e.get("type"), str)
                    and isinstance(e.get("content", {}), dict) for e in initial):
                raise bad_request("initial_state must be a list of state events",
                                  "M_BAD_JSON")
            for k in ("name", "topic", "room_alias_name"):
                if k in body and not isinstance(body[k], str):
                    raise bad_request("Invalid %s" % k, "M_BAD_JSON")
            alias = None
            if body.get("room_alias_name"):
                alias = "#%s:%s" % (body["room_alias_name"], self.server_name)
                if alias in self._aliases:
                    raise bad_request("Room alias already taken", "M_ROOM_IN_USE")
            self._limit("message", creator)

            room = Room("!%s:%s" % (_letters(18), self.server_name), version)
            self._rooms[room.room_id] = room
            conf = PRESETS[preset]
            create = dict(body.get("creation_content") or {})
            create["room_version"] = version
            if int(version) < 11:
                create["creator"] = creator
            self._append(room, creator, "m.room.create", create, "")
            self._append(room, creator, "m.room.member",
                         self._member_content(creator, "join"), creator)
            initial_map = {(e["type"], e.get("state_key", "")): e.get("content", {})
                           for e in initial}
            if (self.encrypt_by_default == "all" or (
                    self.encrypt_by_default == "invite" and
                    preset in ("private_chat", "trusted_private_chat"))):
                # Synapse's encryption_enabled_by_default_for_room_type
                initial_map.setdefault(("m.room.encryption", ""),
                                       {"algorithm": "m.megolm.v1.aes-sha2"})
            pl = initial_map.pop(("m.room.power_levels", ""), None)
            if pl is None:
                pl = {"users": {creator: 100}, "users_default": 0,
                      "events": {"m.room.name": 50, "m.room.power_levels": 100,
                                 "m.room.history_visibility": 100,
                                 "m.room.canonical_alias": 50, "m.room.avatar": 50,
                                 "m.room.tombstone": 100, "m.room.server_acl": 100,
                                 "m.room.encryption": 100},
                      "events_default": 0, "state_default": 50, "ban": 50, "kick": 50,
                      "redact": 50, "invite": 50, "historical": 100}
                if conf["invitees_ops"]:
                    for u in invitees:
                        pl["users"][u] = 100
                for k, v in conf["pl_override"].items():
                    if k.startswith("m."):
                        pl["events"][k] = v
                    else:
                        pl[k] = v
                for k, v in (body.get("power_level_content_override") or {}).items():
                    pl[k] = v
            self._append(room, creator, "m.room.power_levels", pl, "")
            if alias:
                self._aliases[alias] = room.room_id
                self._append(room, creator, "m.room.canonical_alias", {"alias": alias}, "")
            for etype, content in (("m.room.join_rules", {"join_rule": conf["join_rule"]}),
                                   ("m.room.history_visibility",
                                    {"history_visibility": "shared"}),
                                   ("m.room.guest_access", {"guest_access": "can_join"}
                                    if conf["guest"] else None)):
                content = initial_map.pop((etype, ""), content)
                if content is not None:
                    self._append(room, creator, etype, content, "")
            for (etype, key), content in initial_map.items():
                self._append(room, creator, etype, content, key)
            if "name" in body:
                self._append(room, creator, "m.room.name", {"name": body["name"]}, "")
            if "topic" in body:
                self._append(room, creator, "m.room.topic", {"topic": body["topic"]}, "")
            for u in invitees:
                self._append(room, creator, "m.room.member",
                             self._member_content(u, "invite",
                                                  is_direct=True if body.get("is_direct")
                                                  else None), u)
            self.counters["rooms_created"] += 1
            return room.room_id

    def resolve_alias(self, alias):
        with self.lock:
            room_id = self._aliases.get(alias)
            if room_id is None:
                raise not_found("Room alias %s not found" % alias)
            return room_id

    def _membership_from_state(self, room_id, sender, target, content):
        m = content.get("membership") if isinstance(content, dict) else None
        if m == "join" and target == sender:
            return self._join(room_id, sender)
        if m == "leave":
            return self._leave(room_id, sender, target, content.get("reason"))
        if m == "invite":
            return self._invite(room_id, sender, target)
        raise bad_request("Invalid membership %r" % m, "M_BAD_JSON")

    def _join(self, room_id, user):
        room = self._rooms.get(room_id)
        if room is None:
            raise MatrixError(404, "M_UNKNOWN", "No known servers")
        current = room.membership(user)
        if current == "join":
            return room.state[("m.room.member", user)].event_id
        if current == "ban":
            raise forbidden("You are banned from this room")
        rule_content = room.content("m.room.join_rules") or {}
        rule = rule_content.get("join_rule", "invite")
        extra = {}
        if current == "invite" or rule == "public":
            pass
        elif rule in ("restricted", "knock_restricted"):
            allowed = [a.get("room_id") for a in rule_content.get("allow", [])
                       if isinstance(a, dict) and a.get("type") == "m.room_membership"]
            if not any(r in self._rooms and self._rooms[r].membership(user) == "join"
                       for r in allowed):
                raise forbidden("You do not belong to any of the required rooms/spaces "
                                "to join this room.")
            inviter = max(room.joined(), key=room.user_level, default=None)
            extra["join_authorised_via_users_server"] = inviter
        else:
            raise forbidden("You are not invited to this room.")
        self._limit("join", user)
        ev = self._append(room, user, "m.room.member",
                          self._member_content(user, "join", **extra), user)
        return ev.event_id

    def _leave(self, room_id, sender, target, reason=None):
        room = self._rooms.get(room_id)
        current = room.membership(target) if room is not None else None
        if current is None:
            raise MatrixError(404, "M_UNKNOWN", "Not a known room")
        if target != sender:
            return self._kick(room, sender, target, reason)
        if current in ("leave", "ban"):
            return room.state[("m.room.member", target)].event_id
        ev = self._append(room, sender, "m.room.member",
                          self._member_content(target, "leave", reason=reason), target)
        return ev.event_id

    def _kick(self, room, sender, target, reason):
        if room.membership(sender) != "join":
            raise forbidden("%s not in room %s." % (sender, room.room_id))
        if room.membership(target) not in ("join", "invite"):
            raise forbidden("The target user is not in the room")
        if room.user_level(sender) < room.action_level("kick") or \
                room.user_level(sender) <= room.user_level(target):
            raise forbidden("You cannot kick user %s." % target)
        ev = self._append(room, sender, "m.room.member",
                          self._member_content(target, "leave", reason=reason), target)
        return ev.event_id

    def _invite(self, room_id, sender, target, is_direct=False):
        room = self._rooms.get(room_id)
        if room is None or room.membership(sender) != "join":
            raise forbidden("%s not in room %s." % (sender, room_id))
        if not valid_user_id(target):
            raise bad_request("Invalid user_id", "M_INVALID_PARAM")
        if target not in self._accounts:
            raise not_found("Profile was not found")
        current = room.membership(target)
        if current == "join":
            raise forbidden("%s is already in the room." % target)
        if current == "ban":
            raise forbidden("%s is banned from the room" % target)
        if room.user_level(sender) < room.action_level("invite"):
            raise forbidden("You don't have permission to invite users")
        self._limit("invite", sender)
        ev = self._append(room, sender, "m.room.member",
                          self._member_content(target, "invite",
                                               is_direct=True if is_direct else None),
                          target)
        return ev.event_id

    def join(self, room_id_or_alias, user):
        """user joins (invited, public room, or restricted room whose allowed
        room user is in). Returns the room id."""
        with self.lock:
            user = self.user_id(user)
            room_id = room_id_or_alias
            if room_id.startswith("#"):
                room_id = self.resolve_alias(room_id)
            self._join(room_id, user)
            return room_id

    def leave(self, room_id, user, reason=None):
        """user leaves room_id, or rejects its invite."""
        with self.lock:
            user = self.user_id(user)
            return self._leave(room_id, user, user, reason)

    def kick(self, room_id, by, user, reason=None):
        with self.lock:
            room = self._rooms.get(room_id)
            if room is None:
                raise MatrixError(404, "M_UNKNOWN", "Not a known room")
            return self._kick(room, self.user_id(by), self.user_id(user), reason)

    def invite(self, room_id, by, user, is_direct=False):
        """by invites user (is_direct marks the invite as a DM, as createRoom
        with is_direct does)."""
        with self.lock:
            return self._invite(room_id, self.user_id(by), self.user_id(user), is_direct)

    def set_displayname(self, user, name):
        """Sets a display name and, like Synapse, sends a new member event in
        every room the user is joined to."""
        with self.lock:
            acct = self._account(user)
            if name is not None and (not isinstance(name, str) or len(name) > 256):
                raise bad_request("Displayname is too long (max 256)")
            acct.displayname = name
            for room in self._rooms.values():
                if room.membership(acct.user_id) == "join":
                    self._append(room, acct.user_id, "m.room.member",
                                 self._member_content(acct.user_id, "join"), acct.user_id)

    def profile(self, user):
        with self.lock:
            acct = self._account(user)
            out = {}
            if acct.displayname is not None:
                out["displayname"] = acct.displayname
            if acct.avatar_url is not None:
                out["avatar_url"] = acct.avatar_url
            return out

    def upgrade_room(self, room_id, by, new_version=None, join_rule="restricted",
                     invite_members=False):
        """Upgrades room_id as Synapse's /upgrade does: a replacement room
        (m.room.create with predecessor {room_id, event_id of the
        tombstone}), the state copied (name, topic, avatar, encryption,
        history visibility, guest access, power levels, the alias moved),
        then m.room.tombstone {body, replacement_room} in the old room and the
        old room's events_default and invite raised to 50, and m.direct of
        every local member of the old room extended with the new room.

        Nobody is invited (unless invite_members). The new room's join rule:
        "restricted" (default) -- allow members of the old room, so the bot
        can join the replacement by id because it is in the predecessor; a
        public old room stays public; "copy" keeps the old join rule as
        Synapse does (an invite-only room then needs an invite).
        Returns the new room id."""
        with self.lock:
            by = self.user_id(by)
            old = self._room(room_id)
            if old.membership(by) != "join":
                raise forbidden("%s not in room %s." % (by, room_id))
            need = old.send_level("m.room.tombstone", True)
            if old.user_level(by) < need:
                raise forbidden("You do not have permission to upgrade this room")
            version = str(new_version or DEFAULT_ROOM_VERSION)
            tomb_id = new_event_id()
            new = Room("!%s:%s" % (_letters(18), self.server_name), version)
            self._rooms[new.room_id] = new
            create = {"room_version": version,
                      "predecessor": {"room_id": old.room_id, "event_id": tomb_id}}
            if int(version) < 11:
                create["creator"] = by
            self._append(new, by, "m.room.create", create, "")
            self._append(new, by, "m.room.member", self._member_content(by, "join"), by)
            pl = _deep(old.power_levels())
            pl.setdefault("users", {})[by] = max(100, int(pl["users"].get(by, 0)))
            self._append(new, by, "m.room.power_levels", pl, "")
            old_rule = old.content("m.room.join_rules") or {"join_rule": "invite"}
            if join_rule == "copy" or old_rule.get("join_rule") == "public":
                rule = _deep(old_rule)
            else:
                rule = {"join_rule": "restricted",
                        "allow": [{"type": "m.room_membership", "room_id": old.room_id}]}
            self._append(new, by, "m.room.join_rules", rule, "")
            for etype in ("m.room.history_visibility", "m.room.guest_access", "m.room.name",
                          "m.room.topic", "m.room.avatar", "m.room.encryption",
                          "m.room.canonical_alias"):
                content = old.content(etype)
                if content is not None:
                    self._append(new, by, etype, content, "")
            self._append(old, by, "m.room.tombstone",
                         {"body": "This room has been replaced",
                          "replacement_room": new.room_id}, "", event_id=tomb_id)
            old_pl = _deep(old.power_levels())
            restricted = max(int(old_pl.get("users_default", 0)) + 1, 50)
            changed = False
            for k in ("invite", "events_default"):
                if int(old_pl.get(k, 0)) < restricted:
                    old_pl[k] = restricted
                    changed = True
            if changed:
                self._append(old, by, "m.room.power_levels", old_pl, "")
            for alias, rid in list(self._aliases.items()):
                if rid == old.room_id:
                    self._aliases[alias] = new.room_id
            if old.content("m.room.canonical_alias"):
                self._append(old, by, "m.room.canonical_alias", {}, "")
            for user in old.joined():
                acct = self._accounts.get(user)
                direct = acct.account_data.get("m.direct") if acct else None
                if direct and isinstance(direct[1], dict):
                    content = _deep(direct[1])
                    for key, rooms in content.items():
                        if isinstance(rooms, list) and old.room_id in rooms \
                                and new.room_id not in rooms:
                            rooms.append(new.room_id)
                            self._set_account_data(acct, "m.direct", content)
                            break
            if invite_members:
                for user in old.joined():
                    if user != by:
                        self._invite(new.room_id, by, user)
            self.counters["rooms_upgraded"] += 1
            return new.room_id
