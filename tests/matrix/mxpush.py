"""mxpush.py -- the push rules a Synapse account starts with, as GET
/pushrules/ answers them: Synapse's base rules (rust/src/push/base_rules.rs)
in their order, with the experimental ones a default configuration leaves
out (MSC1767 extensible events, MSC3664 replies, MSC3930 polls, MSC4028
encrypted events, MSC4306 threads), formatted by
synapse/push/clientformat.py: every kind's list present, the rule ids
unscoped, "default" and "enabled" on each, the user's id and localpart
written into the patterns. The double keeps no rules of its own: clients
(the js-sdk refuses to start syncing without them) read these.
"""

_HIGHLIGHT = {"set_tweak": "highlight"}
_NO_HIGHLIGHT = {"set_tweak": "highlight", "value": False}
_SOUND = {"set_tweak": "sound", "value": "default"}
_RING = {"set_tweak": "sound", "value": "ring"}


def _match(key, pattern):
    return {"kind": "event_match", "key": key, "pattern": pattern}


def _rule(rule_id, conditions, actions, enabled=True):
    return {"rule_id": rule_id, "default": True, "enabled": enabled,
            "conditions": conditions, "actions": actions}


def default_push_rules(user_id):
    """{"global": {...}} for user_id, as Synapse answers a new account."""
    localpart = user_id[1:].split(":", 1)[0]
    override = [
        _rule(".m.rule.master", [], [], enabled=False),
        _rule(".m.rule.suppress_notices", [_match("content.msgtype", "m.notice")], []),
        _rule(".m.rule.invite_for_me",
              [_match("type", "m.room.member"), _match("content.membership", "invite"),
               _match("state_key", user_id)], ["notify", _NO_HIGHLIGHT, _SOUND]),
        _rule(".m.rule.member_event", [_match("type", "m.room.member")], []),
        _rule(".m.rule.is_user_mention",
              [{"kind": "event_property_contains", "key": "content.m\\.mentions.user_ids",
                "value": user_id}], ["notify", _HIGHLIGHT, _SOUND]),
        _rule(".m.rule.contains_display_name", [{"kind": "contains_display_name"}],
              ["notify", _HIGHLIGHT, _SOUND]),
        _rule(".m.rule.is_room_mention",
              [{"kind": "event_property_is", "key": "content.m\\.mentions.room", "value": True},
               {"kind": "sender_notification_permission", "key": "room"}],
              ["notify", _HIGHLIGHT]),
        _rule(".m.rule.roomnotif",
              [{"kind": "sender_notification_permission", "key": "room"},
               _match("content.body", "@room")], ["notify", _HIGHLIGHT]),
        _rule(".m.rule.tombstone", [_match("type", "m.room.tombstone"), _match("state_key", "")],
              ["notify", _HIGHLIGHT]),
        _rule(".m.rule.reaction", [_match("type", "m.reaction")], []),
        _rule(".m.rule.room.server_acl",
              [_match("type", "m.room.server_acl"), _match("state_key", "")], []),
        _rule(".m.rule.suppress_edits",
              [{"kind": "event_property_is", "key": "content.m\\.relates_to.rel_type",
                "value": "m.replace"}], []),
    ]
    content = [{"rule_id": ".m.rule.contains_user_name", "default": True, "enabled": True,
                "pattern": localpart, "actions": ["notify", _HIGHLIGHT, _SOUND]}]
    one_to_one = {"kind": "room_member_count", "is": "2"}
    underride = [
        _rule(".m.rule.call", [_match("type", "m.call.invite")], ["notify", _RING, _NO_HIGHLIGHT]),
        _rule(".m.rule.encrypted_room_one_to_one", [_match("type", "m.room.encrypted"), one_to_one],
              ["notify", _SOUND, _NO_HIGHLIGHT]),
        _rule(".m.rule.room_one_to_one", [_match("type", "m.room.message"), one_to_one],
              ["notify", _SOUND, _NO_HIGHLIGHT]),
        _rule(".m.rule.message", [_match("type", "m.room.message")], ["notify", _NO_HIGHLIGHT]),
        _rule(".m.rule.encrypted", [_match("type", "m.room.encrypted")],
              ["notify", _NO_HIGHLIGHT]),
        _rule(".im.vector.jitsi",
              [_match("type", "im.vector.modular.widgets"), _match("content.type", "jitsi"),
               _match("state_key", "*")], ["notify", _NO_HIGHLIGHT]),
    ]
    return {"global": {"underride": underride, "sender": [], "room": [], "postcontent": [],
                       "content": content, "override": override}}
