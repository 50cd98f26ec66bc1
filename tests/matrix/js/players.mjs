// players.mjs -- Matrix players for the tests, each a matrix-js-sdk client
// with its Rust crypto (@matrix-org/matrix-sdk-crypto-wasm), the stack
// Element runs. A thin client: tests/matrix/test_mx_jssdk.py plays the game
// and drives this script over stdin/stdout, one JSON object a line.
//
// A request is {"id": N, "op": OP, ...}; the answer {"id": N, "ok": true,
// ...} or {"id": N, "error": TEXT}. Requests are served one after the other.
// Nothing else is written to stdout: the js-sdk's own log goes to stderr.
//
//   login {name, url, user, password, device}  log in, start Rust crypto (in
//       memory, no IndexedDB in Node) with "only signed devices" isolation,
//       set up cross-signing (the password for the user-interactive auth),
//       start syncing; invitations are joined as they come
//   create_room {name, room_name, invite, encrypted}  -> {room}
//   send {name, room, body}  an m.text, encrypted in an encrypted room
//       -> {event}
//   read {name, room, events, wait}  waits (wait seconds at most) until each event (ids) is in
//       the client's timeline and its decryption is settled -> {events:
//       [{event, type, encrypted, failure, content}]}
//   joined {name, room, wait}  waits until the client is joined to room
//   device {name, user, device}  the client's view of a device -> {status:
//       {signedByOwner, crossSigningVerified, ...} or null}
//   stats {name}  -> {decrypted, failures: [{event, room, reason}], requests:
//       [{method, path, status, errcode}]}
//   stop  stops every client and exits
//
// Node 20 lacks Promise.withResolvers (Node 22), which the js-sdk uses.
import readline from "node:readline";

if (typeof Promise.withResolvers !== "function") {
    Promise.withResolvers = function withResolvers() {
        let resolve, reject;
        const promise = new this((res, rej) => {
            resolve = res;
            reject = rej;
        });
        return { promise, resolve, reject };
    };
}

// The protocol owns stdout; every library's console output goes to stderr.
for (const level of ["log", "info", "debug", "trace", "warn", "error"]) {
    console[level] = (...args) => process.stderr.write(args.map(String).join(" ") + "\n");
}

const sdk = await import("matrix-js-sdk");
const { logger } = await import("matrix-js-sdk/lib/logger.js");
const { OnlySignedDevicesIsolationMode } = await import("matrix-js-sdk/lib/crypto-api/index.js");
logger.setLevel(process.env.PZ_JSSDK_LOG || "warn");

const clients = new Map(); // name -> {client, decrypted, failures, requests}

function player(name) {
    const p = clients.get(name);
    if (!p) throw new Error(`no player ${name}`);
    return p;
}

// Resolves once cond() holds, rejects with what() after timeout seconds; cond
// is checked every 10 ms.
function until(cond, timeout, what) {
    return new Promise((resolve, reject) => {
        if (!(timeout > 0)) {
            reject(new Error(`no time to wait given (${timeout}) for ${what()}`));
            return;
        }
        const deadline = Date.now() + timeout * 1000;
        const tick = () => {
            let v;
            try {
                v = cond();
            } catch (e) {
                reject(e);
                return;
            }
            if (v) resolve(v);
            else if (Date.now() > deadline) reject(new Error(`timed out: ${what()}`));
            else setTimeout(tick, 10);
        };
        tick();
    });
}

// The fetch the client uses: each request's method, path and status kept
// (and an error's errcode), for the test to list what the js-sdk asked for.
function recordingFetch(requests) {
    return async (url, init) => {
        const res = await fetch(url, init);
        const entry = {
            method: (init && init.method) || "GET",
            path: new URL(url).pathname,
            status: res.status,
        };
        if (res.status >= 400) {
            try {
                entry.errcode = (await res.clone().json()).errcode;
            } catch {
                entry.errcode = null; // not JSON
            }
        }
        requests.push(entry);
        return res;
    };
}

async function login({ name, url, user, password, device }) {
    const requests = [];
    const fetchFn = recordingFetch(requests);
    const bare = sdk.createClient({ baseUrl: url, fetchFn });
    const r = await bare.loginRequest({
        type: "m.login.password",
        identifier: { type: "m.id.user", user },
        password,
        device_id: device,
    });
    bare.stopClient();
    const client = sdk.createClient({
        baseUrl: url,
        userId: r.user_id,
        deviceId: r.device_id,
        accessToken: r.access_token,
        fetchFn,
    });
    const p = { client, decrypted: 0, failures: [], requests };
    clients.set(name, p);
    await client.initRustCrypto({ useIndexedDB: false });
    const crypto = client.getCrypto();
    crypto.setDeviceIsolationMode(new OnlySignedDevicesIsolationMode());
    await crypto.bootstrapCrossSigning({
        authUploadDeviceSigningKeys: (makeRequest) =>
            makeRequest({
                type: "m.login.password",
                identifier: { type: "m.id.user", user: r.user_id },
                password,
            }),
    });
    client.on(sdk.MatrixEventEvent.Decrypted, (ev) => {
        if (ev.isDecryptionFailure())
            p.failures.push({ event: ev.getId(), room: ev.getRoomId(), reason: ev.decryptionFailureReason });
        else p.decrypted += 1;
    });
    client.on(sdk.RoomMemberEvent.Membership, (_ev, member) => {
        if (member.userId === r.user_id && member.membership === "invite")
            client
                .joinRoom(member.roomId)
                .catch((e) => console.error(`${name}: join ${member.roomId}: ${e}`));
    });
    const ready = new Promise((resolve, reject) => {
        client.on(sdk.ClientEvent.Sync, (state, _prev, data) => {
            if (state === "PREPARED") resolve();
            if (state === "ERROR") console.error(`${name}: sync error: ${data && data.error}`);
        });
        setTimeout(() => reject(new Error(`${name}: the first sync did not come`)), 60000);
    });
    await client.startClient({ initialSyncLimit: 100 });
    await ready;
    return { user: r.user_id, device: r.device_id };
}

async function createRoom({ name, room_name, invite, encrypted }) {
    const initial_state = encrypted
        ? [{ type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } }]
        : [];
    const r = await player(name).client.createRoom({
        name: room_name,
        invite,
        initial_state,
        preset: "private_chat",
    });
    return { room: r.room_id };
}

async function joined({ name, room, wait }) {
    const c = player(name).client;
    await until(() => c.getRoom(room) && c.getRoom(room).getMyMembership() === "join", wait,
        () => `${name} joined ${room}`);
    return {};
}

async function send({ name, room, body }) {
    const r = await player(name).client.sendMessage(room, { msgtype: "m.text", body });
    return { event: r.event_id };
}

// Whether ev's decryption is over: decrypted, or failed (a plaintext event
// always is).
function settled(ev) {
    const pending = ev.isEncrypted() && ev.getClearContent() === null && !ev.isDecryptionFailure();
    return !ev.isBeingDecrypted() && !pending;
}

async function read({ name, room, events, wait }) {
    const c = player(name).client;
    const find = (id) => {
        const r = c.getRoom(room);
        return r ? r.findEventById(id) : undefined;
    };
    await until(() => events.every((id) => find(id) && settled(find(id))), wait,
        () => `${name} reads ${events.length} events in ${room}: not in its timeline ` +
            `${events.filter((id) => !find(id))}, not decrypted yet ` +
            `${events.filter((id) => find(id) && !settled(find(id)))}`);
    return {
        events: events.map((id) => {
            const ev = find(id);
            return {
                event: id,
                type: ev.getType(),
                encrypted: ev.isEncrypted(),
                failure: ev.isDecryptionFailure() ? ev.decryptionFailureReason || "failed" : null,
                content: ev.getContent(),
                sender: ev.getSender(),
            };
        }),
    };
}

async function device({ name, user, device: id }) {
    const crypto = player(name).client.getCrypto();
    await crypto.getUserDeviceInfo([user], true);
    const s = await crypto.getDeviceVerificationStatus(user, id);
    return {
        status: s && {
            signedByOwner: s.signedByOwner,
            crossSigningVerified: s.crossSigningVerified,
            localVerified: s.localVerified,
            isVerified: s.isVerified(),
        },
    };
}

function stats({ name }) {
    const p = player(name);
    return { decrypted: p.decrypted, failures: p.failures, requests: p.requests };
}

const ops = { login, create_room: createRoom, joined, send, read, device, stats };

function answer(obj) {
    process.stdout.write(JSON.stringify(obj) + "\n");
}

async function stop() {
    for (const p of clients.values()) p.client.stopClient();
    answer({ ok: true, op: "stop" });
    process.exit(0);
}

const rl = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
rl.on("line", (line) => {
    queue = queue.then(async () => {
        let req;
        try {
            req = JSON.parse(line);
        } catch (e) {
            answer({ error: `not JSON: ${line.slice(0, 80)}` });
            return;
        }
        if (req.op === "stop") return stop();
        const op = ops[req.op];
        if (!op) {
            answer({ id: req.id, error: `unknown op ${req.op}` });
            return;
        }
        try {
            answer({ id: req.id, ok: true, ...(await op(req)) });
        } catch (e) {
            answer({ id: req.id, error: String((e && e.stack) || e) });
        }
    });
});
rl.on("close", () => queue.then(stop));
