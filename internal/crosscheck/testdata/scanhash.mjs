#!/usr/bin/env node
// Runs ../shared/peers/js/dump.mjs unchanged (same arguments, same output)
// and, beside it, writes one line per LaserScan that Foxglove's
// MessageReader decodes: the SHA-256 of its full ranges and of its full
// intensities, each as little-endian float32 with every NaN written as
// 0x7fc00000 (JavaScript may not keep NaN payloads). dump.mjs decodes
// exactly the messages it prints, in order, so line k belongs to the k-th
// LaserScan line on stdout. Run from the directory holding dump.mjs and
// its node_modules (the crosscheck test copies this file there).
//
//   BAGCLOCK_SCAN_HASHES=OUT node scanhash.mjs BAG [dump.mjs options]

import fs from "node:fs";
import { createHash } from "node:crypto";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

const out = fs.openSync(process.env.BAGCLOCK_SCAN_HASHES, "w");

function digest(values) {
  const buf = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) buf.writeUInt32LE(0x7fc00000, 4 * i);
    else buf.writeFloatLE(v, 4 * i);
  }
  return createHash("sha256").update(buf).digest("hex");
}

const isNumbers = (a) => ArrayBuffer.isView(a) || (Array.isArray(a) && a.every((v) => typeof v === "number"));

const readMessage = MessageReader.prototype.readMessage;
MessageReader.prototype.readMessage = function (data) {
  const m = readMessage.call(this, data);
  if (m && m.header && typeof m.angle_increment === "number" && isNumbers(m.ranges) && isNumbers(m.intensities)) {
    fs.writeSync(out, `${m.ranges.length} ${digest(m.ranges)} ${m.intensities.length} ${digest(m.intensities)}\n`);
  }
  return m;
};

await import("./dump.mjs");
