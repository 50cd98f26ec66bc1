/*
 * test_mx_crypto.c — the Matrix adapter's cryptography module
 * (adapters/matrix/mx_crypto.h, mx_cjson.h): canonical JSON as the spec
 * writes it (its own examples), the Olm account kept as a pickle (same
 * keys back with the key, refused with another), signed device keys that
 * verify and stop verifying once a byte changes, one-time and fallback keys
 * signed and counted, cross-signing keys pickled and signing. The other
 * side (python3-olm reading these signatures) is tests/matrix's
 * test_mx_e2ee.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "mx_cjson.h"
#include "mx_crypto.h"

static void canon_is(const char *in, const char *want)
{
    json_object *o = json_tokener_parse(in);
    assert_non_null(o);
    char *s = mx_cjson(o, 0);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
    json_object_put(o);
}

static void test_canonical_json_sorts_keys_and_drops_spaces(void **state)
{
    (void)state;
    canon_is("{\"b\": \"2\", \"a\": \"1\"}", "{\"a\":\"1\",\"b\":\"2\"}");
    canon_is("{\"one\": 1, \"two\": \"Two\"}", "{\"one\":1,\"two\":\"Two\"}");
    canon_is("{\"auth\": {\"success\": true, \"mxid\": \"@john.doe:example.com\", "
             "\"profile\": {\"display_name\": \"John Doe\", \"three_pids\": [{\"medium\": "
             "\"email\", \"address\": \"john.doe@example.org\"}]}}}",
             "{\"auth\":{\"mxid\":\"@john.doe:example.com\",\"profile\":{\"display_name\":\"John "
             "Doe\",\"three_pids\":[{\"address\":\"john.doe@example.org\",\"medium\":\"email\"}]},"
             "\"success\":true}}");
    canon_is("{\"a\": null, \"b\": [], \"c\": {}, \"d\": -5}",
             "{\"a\":null,\"b\":[],\"c\":{},\"d\":-5}");
}

static void test_canonical_json_keeps_utf8_and_escapes_controls(void **state)
{
    (void)state;
    canon_is("{\"a\": \"\\u65E5\\u672C\\u8A9E\"}",
             "{\"a\":\"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\"}");
    canon_is("{\"\\u65E5\": 1, \"a\": 2}", "{\"a\":2,\"\xE6\x97\xA5\":1}");
    canon_is("{\"a\": \"\\u0000\\u001f\\\"\\\\/\\n\"}", "{\"a\":\"\\u0000\\u001f\\\"\\\\/\\n\"}");
}

static void test_canonical_json_refuses_floats_and_skips_signatures(void **state)
{
    (void)state;
    json_object *o = json_tokener_parse("{\"a\": 1.5}");
    assert_null(mx_cjson(o, 0));
    json_object_put(o);
    o = json_tokener_parse("{\"b\":1,\"signatures\":{\"x\":1},\"unsigned\":{\"y\":2},"
                           "\"c\":{\"signatures\":3}}");
    char *s = mx_cjson(o, 1);
    assert_string_equal(s, "{\"b\":1,\"c\":{\"signatures\":3}}");
    free(s);
    json_object_put(o);
}

#define USER "@porrazo:test"
#define DEVICE "BOTDEVICE"
#define KEY "a pickle key"

static void test_an_account_pickle_keeps_its_keys_and_needs_its_key(void **state)
{
    (void)state;
    mx_olm *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(mx_olm_new(&a, KEY, NULL), 0);
    assert_int_equal(strlen(mx_olm_curve25519(a)), 43);
    assert_int_equal(strlen(mx_olm_ed25519(a)), 43);
    char *p = mx_olm_pickle(a, KEY);
    assert_non_null(p);
    assert_null(strstr(p, mx_olm_ed25519(a))); /* encrypted, not the keys in clear */
    assert_int_equal(mx_olm_new(&b, KEY, p), 0);
    assert_string_equal(mx_olm_curve25519(a), mx_olm_curve25519(b));
    assert_string_equal(mx_olm_ed25519(a), mx_olm_ed25519(b));
    assert_int_equal(mx_olm_new(&c, "another key", p), MX_CRYPTO_EPICKLE);
    assert_null(c);
    assert_int_equal(mx_olm_new(&c, KEY, "garbage"), MX_CRYPTO_EPICKLE);
    assert_int_equal(mx_olm_new(&c, "", NULL), MX_CRYPTO_EINVAL);
    mx_olm *d = NULL;
    assert_int_equal(mx_olm_new(&d, KEY, NULL), 0);
    assert_string_not_equal(mx_olm_ed25519(a), mx_olm_ed25519(d));
    free(p);
    mx_olm_free(a);
    mx_olm_free(b);
    mx_olm_free(d);
}

static void test_device_keys_are_signed_and_a_changed_byte_breaks_the_signature(void **state)
{
    (void)state;
    mx_olm *a = NULL;
    assert_int_equal(mx_olm_new(&a, KEY, NULL), 0);
    json_object *dk = mx_olm_device_keys(a, USER, DEVICE);
    assert_non_null(dk);
    assert_string_equal(json_object_get_string(json_object_object_get(dk, "device_id")), DEVICE);
    json_object *keys = json_object_object_get(dk, "keys");
    assert_string_equal(json_object_get_string(json_object_object_get(keys, "ed25519:" DEVICE)),
                        mx_olm_ed25519(a));
    assert_int_equal(mx_crypto_verify_json(dk, USER, "ed25519:" DEVICE, mx_olm_ed25519(a)), 0);
    /* unsigned data is outside the signature */
    json_object_object_add(dk, "unsigned", json_object_new_string("anything"));
    assert_int_equal(mx_crypto_verify_json(dk, USER, "ed25519:" DEVICE, mx_olm_ed25519(a)), 0);
    /* another signer, another key id, a changed key: refused */
    assert_int_equal(mx_crypto_verify_json(dk, "@eve:test", "ed25519:" DEVICE, mx_olm_ed25519(a)),
                     MX_CRYPTO_ESIGNATURE);
    assert_int_equal(mx_crypto_verify_json(dk, USER, "ed25519:OTHER", mx_olm_ed25519(a)),
                     MX_CRYPTO_ESIGNATURE);
    json_object_object_add(keys, "curve25519:" DEVICE,
                           json_object_new_string("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
    assert_int_equal(mx_crypto_verify_json(dk, USER, "ed25519:" DEVICE, mx_olm_ed25519(a)),
                     MX_CRYPTO_ESIGNATURE);
    json_object_put(dk);
    mx_olm_free(a);
}

static void test_one_time_and_fallback_keys_are_signed_until_published(void **state)
{
    (void)state;
    mx_olm *a = NULL;
    json_object *otks = NULL, *fb = NULL;
    assert_int_equal(mx_olm_new(&a, KEY, NULL), 0);
    assert_true(mx_olm_max_otks(a) >= 50);
    assert_int_equal(mx_olm_new_keys(a, 5, true, USER, DEVICE, &otks, &fb), 0);
    assert_int_equal(json_object_object_length(otks), 5);
    assert_int_equal(json_object_object_length(fb), 1);
    json_object_object_foreach(otks, id, k)
    {
        assert_true(strncmp(id, "signed_curve25519:", 18) == 0);
        assert_int_equal(mx_crypto_verify_json(k, USER, "ed25519:" DEVICE, mx_olm_ed25519(a)), 0);
        assert_null(json_object_object_get(k, "fallback"));
    }
    json_object_object_foreach(fb, fid, f)
    {
        (void)fid;
        assert_true(json_object_get_boolean(json_object_object_get(f, "fallback")));
        assert_int_equal(mx_crypto_verify_json(f, USER, "ed25519:" DEVICE, mx_olm_ed25519(a)), 0);
    }
    json_object_put(otks);
    json_object_put(fb);
    /* not published: the same five come back, with three more */
    assert_int_equal(mx_olm_new_keys(a, 3, false, USER, DEVICE, &otks, NULL), 0);
    assert_int_equal(json_object_object_length(otks), 8);
    json_object_put(otks);
    mx_olm_published(a);
    assert_int_equal(mx_olm_new_keys(a, 0, false, USER, DEVICE, &otks, NULL), 0);
    assert_int_equal(json_object_object_length(otks), 0);
    json_object_put(otks);
    assert_int_equal(mx_olm_new_keys(a, mx_olm_max_otks(a) + 1, false, USER, DEVICE, &otks, NULL),
                     MX_CRYPTO_EINVAL);
    mx_olm_free(a);
}

static void test_cross_signing_keys_pickle_and_sign(void **state)
{
    (void)state;
    mx_xkey *m = NULL, *m2 = NULL, *s = NULL;
    assert_int_equal(mx_xkey_new(&m, KEY, NULL), 0);
    assert_int_equal(mx_xkey_new(&s, KEY, NULL), 0);
    assert_int_equal(strlen(mx_xkey_public(m)), 43);
    assert_string_not_equal(mx_xkey_public(m), mx_xkey_public(s));
    char *p = mx_xkey_pickle(m, KEY);
    assert_non_null(p);
    assert_int_equal(mx_xkey_new(&m2, KEY, p), 0);
    assert_string_equal(mx_xkey_public(m), mx_xkey_public(m2));
    assert_int_equal(mx_xkey_new(&m2 /* unchanged on error */, "wrong", p), MX_CRYPTO_EPICKLE);
    json_object *o = json_tokener_parse("{\"user_id\":\"" USER "\",\"usage\":[\"self_signing\"]}");
    assert_int_equal(mx_xkey_sign_json(m2, o, USER), 0);
    char kid[96];
    snprintf(kid, sizeof kid, "ed25519:%s", mx_xkey_public(m));
    assert_int_equal(mx_crypto_verify_json(o, USER, kid, mx_xkey_public(m)), 0);
    assert_int_equal(mx_crypto_verify_json(o, USER, kid, mx_xkey_public(s)), MX_CRYPTO_ESIGNATURE);
    json_object_put(o);
    free(p);
    mx_xkey_free(m);
    mx_xkey_free(m2);
    mx_xkey_free(s);
}

/* The curve25519 value of the only one-time key in otks. */
static const char *only_otk(json_object *otks)
{
    json_object_object_foreach(otks, id, k)
    {
        (void)id;
        return json_object_get_string(json_object_object_get(k, "key"));
    }
    return NULL;
}

static void test_olm_sessions_carry_messages_both_ways(void **state)
{
    (void)state;
    mx_olm *a = NULL, *b = NULL;
    json_object *otks = NULL;
    assert_int_equal(mx_olm_new(&a, KEY, NULL), 0);
    assert_int_equal(mx_olm_new(&b, KEY, NULL), 0);
    assert_int_equal(mx_olm_new_keys(b, 1, false, USER, "B", &otks, NULL), 0);
    mx_olm_published(b);
    char *sa = NULL, *sb = NULL, *cipher = NULL, *plain = NULL;
    int type = -1;
    assert_int_equal(mx_olm_session_new(a, KEY, mx_olm_curve25519(b), only_otk(otks), &sa), 0);
    json_object_put(otks);
    assert_int_equal(mx_olm_encrypt(KEY, &sa, "{\"hello\":1}", &type, &cipher), 0);
    assert_int_equal(type, 0); /* a pre-key message until b answers */
    assert_int_equal(mx_olm_decrypt(b, KEY, &sb, mx_olm_curve25519(a), type, cipher, &plain), 0);
    assert_string_equal(plain, "{\"hello\":1}");
    free(plain);
    /* the same pre-key message again goes to the same session: read once only */
    assert_int_equal(mx_olm_decrypt(b, KEY, &sb, mx_olm_curve25519(a), type, cipher, &plain),
                     MX_CRYPTO_EOLM);
    free(cipher);
    assert_int_equal(mx_olm_encrypt(KEY, &sb, "back", &type, &cipher), 0);
    assert_int_equal(type, 1);
    assert_int_equal(mx_olm_decrypt(a, KEY, &sa, mx_olm_curve25519(b), type, cipher, &plain), 0);
    assert_string_equal(plain, "back");
    free(plain);
    /* another sender's key cannot read it */
    char *none = NULL;
    assert_int_equal(mx_olm_decrypt(a, KEY, &none, mx_olm_curve25519(a), type, cipher, &plain),
                     MX_CRYPTO_EOLM);
    free(cipher);
    free(sa);
    free(sb);
    mx_olm_free(a);
    mx_olm_free(b);
}

static void test_megolm_indexes_advance_and_the_key_reads_them(void **state)
{
    (void)state;
    char *out = NULL, *in = NULL, *key = NULL, *c0 = NULL, *c1 = NULL, *plain = NULL;
    char sid[128], sid2[128];
    unsigned index = 99;
    assert_int_equal(mx_megolm_out_new(KEY, &out), 0);
    assert_int_equal(mx_megolm_out_info(KEY, out, sid, sizeof sid, &index, &key), 0);
    assert_int_equal(index, 0);
    assert_int_equal(mx_megolm_encrypt(KEY, &out, "zero", &c0), 0);
    assert_int_equal(mx_megolm_encrypt(KEY, &out, "one", &c1), 0);
    assert_int_equal(mx_megolm_out_info(KEY, out, sid2, sizeof sid2, &index, NULL), 0);
    assert_int_equal(index, 2);
    assert_string_equal(sid, sid2);
    assert_int_equal(mx_megolm_in_new(KEY, key, &in, sid2, sizeof sid2), 0);
    assert_string_equal(sid, sid2);
    assert_int_equal(mx_megolm_decrypt(KEY, in, c1, &plain, &index), 0);
    assert_string_equal(plain, "one");
    assert_int_equal(index, 1);
    free(plain);
    assert_int_equal(mx_megolm_decrypt(KEY, in, c0, &plain, &index), 0);
    assert_string_equal(plain, "zero");
    assert_int_equal(index, 0);
    free(plain);
    assert_int_equal(mx_megolm_decrypt("wrong", in, c0, &plain, &index), MX_CRYPTO_EPICKLE);
    /* a key shared at index 2 cannot read what came before */
    char *key2 = NULL, *in2 = NULL;
    assert_int_equal(mx_megolm_out_info(KEY, out, sid2, sizeof sid2, &index, &key2), 0);
    assert_int_equal(mx_megolm_in_new(KEY, key2, &in2, sid2, sizeof sid2), 0);
    assert_int_equal(mx_megolm_decrypt(KEY, in2, c0, &plain, &index), MX_CRYPTO_EOLM);
    free(key);
    free(key2);
    free(in);
    free(in2);
    free(out);
    free(c0);
    free(c1);
}

static void test_every_error_has_a_message(void **state)
{
    (void)state;
    for (int e = MX_CRYPTO_EUNAVAILABLE; e < 0; e++)
        assert_string_not_equal(mx_crypto_strerror(e), "unknown error");
    assert_string_equal(mx_crypto_strerror(1), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_json_sorts_keys_and_drops_spaces),
        cmocka_unit_test(test_canonical_json_keeps_utf8_and_escapes_controls),
        cmocka_unit_test(test_canonical_json_refuses_floats_and_skips_signatures),
        cmocka_unit_test(test_an_account_pickle_keeps_its_keys_and_needs_its_key),
        cmocka_unit_test(test_device_keys_are_signed_and_a_changed_byte_breaks_the_signature),
        cmocka_unit_test(test_one_time_and_fallback_keys_are_signed_until_published),
        cmocka_unit_test(test_cross_signing_keys_pickle_and_sign),
        cmocka_unit_test(test_olm_sessions_carry_messages_both_ways),
        cmocka_unit_test(test_megolm_indexes_advance_and_the_key_reads_them),
        cmocka_unit_test(test_every_error_has_a_message),
    };
    if (!mx_crypto_available()) {
        printf("SKIP: built without libolm\n");
        return 77;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
