#!/usr/bin/env node
// Decodes rcl_interfaces/msg/Log messages with Foxglove's
// @foxglove/rosmsg2-serialization (definition from
// @foxglove/rosmsg-msgs-common, ros2jazzy) for bagclock's crosscheck tests.
// Run from a directory whose node_modules holds ../shared/peers/js's
// packages (the test copies this file there).
//
//   node dumplog.mjs FILE.db3|FILE.mcap
//
// One JSON line per message: {topic, log_time_ns, stamp_ns, level, name,
// msg, file, function, line}. rosbag2 zstd compression is undone with
// fzstd: FILE mode (.db3.zstd) and MESSAGE mode (a blob starting with the
// zstd magic; CDR always starts with 0x00).

import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { decompress as zstdDecompress } from "fzstd";
import Database from "better-sqlite3";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import rosmsgsCommon from "@foxglove/rosmsg-msgs-common";
import { McapIndexedReader } from "@mcap/core";
import { FileHandleReadable } from "@mcap/nodejs";
import { loadDecompressHandlers } from "@mcap/support";

const lib = rosmsgsCommon.ros2jazzy;
const reader = new MessageReader([{ ...lib["rcl_interfaces/Log"], name: undefined }]);
const isLog = (type) => type.replace("/msg/", "/") === "rcl_interfaces/Log";
const NS = 1_000_000_000n;
const lines = [];

const isZstd = (b) => b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd;

function emit(topic, logTime, data) {
  const m = reader.readMessage(isZstd(data) ? zstdDecompress(data) : data);
  const stamp = BigInt(m.stamp.sec) * NS + BigInt(m.stamp.nanosec ?? m.stamp.nsec);
  const s = JSON.stringify({
    topic, log_time_ns: `__BIG__${logTime}`, stamp_ns: `__BIG__${stamp}`,
    level: m.level, name: m.name, msg: m.msg, file: m.file, function: m.function, line: m.line,
  }).replace(/"__BIG__(-?\d+)"/g, "$1");
  lines.push(s);
}

async function main() {
  let file = process.argv[2];
  let tmp = null;
  if (file.endsWith(".zstd")) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dumplog-"));
    const plain = path.join(tmp, path.basename(file, ".zstd"));
    fs.writeFileSync(plain, zstdDecompress(fs.readFileSync(file)));
    file = plain;
  }
  if (file.endsWith(".mcap")) {
    const fh = await fsp.open(file, "r");
    const r = await McapIndexedReader.Initialize({ readable: new FileHandleReadable(fh), decompressHandlers: await loadDecompressHandlers() });
    const topics = new Map();
    for (const [id, ch] of r.channelsById) {
      const schema = r.schemasById.get(ch.schemaId);
      if (schema && isLog(schema.name) && ch.messageEncoding === "cdr") topics.set(id, ch.topic);
    }
    for await (const m of r.readMessages()) {
      if (topics.has(m.channelId)) emit(topics.get(m.channelId), m.logTime, m.data);
    }
    await fh.close();
  } else {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    const topics = new Map();
    for (const t of db.prepare("SELECT id, name, type FROM topics").all()) if (isLog(t.type)) topics.set(t.id, t.name);
    const stmt = db.prepare("SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id").raw(true).safeIntegers(true);
    for (const [tid, ts, blob] of stmt.iterate()) {
      const name = topics.get(Number(tid));
      if (name !== undefined) emit(name, ts, blob);
    }
    db.close();
  }
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  fs.writeSync(1, lines.length ? lines.join("\n") + "\n" : "");
}

main().catch((e) => {
  process.stderr.write(`dumplog.mjs: ${e.stack ?? e}\n`);
  process.exit(1);
});
