// foxglove_dump.mjs BAG
//
// Reads a ROS 1 bag with Foxglove's @foxglove/rosbag (bz2 chunks through
// @foxglove/wasm-bz2, lz4 chunks through @foxglove/wasm-lz4, the helpers
// Foxglove's own player uses) and prints, for bagclock's differential test:
//
//   one JSON line per message, in the order the library yields them (time
//   order, merged across chunks): topic, connection id, record time as
//   sec/nsec, callerid and latching of the message's connection, sha256 of
//   the serialized bytes, and the stamps the message carries (a Header's
//   [sec, nsec, frame_id, seq]; each transform's
//   [sec, nsec, frame_id, child_frame_id]; a Clock's [sec, nsec]);
//
//   then one summary line: every connection record (id, topic, type,
//   md5sum, callerid, latching, messages read on it) and the bag header's
//   chunk and connection counts.
//
// A bag the library refuses (no index: a .bag.active) exits 2 with
// "foxglove_dump.mjs: <error>" on stderr.
import { createHash } from "node:crypto";
import { Bag } from "@foxglove/rosbag";
import { FileReader } from "@foxglove/rosbag/node.js";
import Bzip2 from "@foxglove/wasm-bz2";
import lz4 from "@foxglove/wasm-lz4";

const path = process.argv[2];
if (!path) {
  console.error("usage: node foxglove_dump.mjs BAG");
  process.exit(1);
}

function stamp(t) {
  return [t.sec, t.nsec];
}

// stamps lists what bagclock reads from a message of the analysed types.
function stamps(msg) {
  if (msg == null || typeof msg !== "object") return [];
  if (Array.isArray(msg.transforms)) {
    return msg.transforms.map((t) => [...stamp(t.header.stamp), t.header.frame_id, t.child_frame_id]);
  }
  if (msg.clock && typeof msg.clock.sec === "number") return [stamp(msg.clock)];
  if (msg.header && msg.header.stamp) {
    return [[...stamp(msg.header.stamp), msg.header.frame_id, msg.header.seq]];
  }
  return [];
}

async function main() {
  await lz4.isLoaded;
  const bzip2 = await Bzip2.init();
  const bag = new Bag(new FileReader(path), {
    decompress: {
      bz2: (buf, size) => bzip2.decompress(buf, size, { small: false }),
      lz4: (buf, size) => lz4(buf, size),
    },
  });
  await bag.open();
  const counts = new Map();
  const out = [];
  const flush = () => {
    if (out.length > 0) {
      process.stdout.write(out.join(""));
      out.length = 0;
    }
  };
  for await (const ev of bag.messageIterator()) {
    const conn = bag.connections.get(ev.connectionId);
    counts.set(ev.connectionId, (counts.get(ev.connectionId) ?? 0) + 1);
    out.push(
      JSON.stringify({
        topic: ev.topic,
        conn: ev.connectionId,
        sec: ev.timestamp.sec,
        nsec: ev.timestamp.nsec,
        callerid: conn?.callerid ?? "",
        latching: conn?.latching ?? false,
        sha256: createHash("sha256").update(ev.data).digest("hex"),
        stamps: stamps(ev.message),
      }) + "\n",
    );
    if (out.length >= 1024) flush();
  }
  flush();
  const connections = [...bag.connections.values()]
    .sort((a, b) => a.conn - b.conn)
    .map((c) => ({
      conn: c.conn,
      topic: c.topic,
      type: c.type ?? "",
      md5sum: c.md5sum ?? "",
      callerid: c.callerid ?? "",
      latching: c.latching ?? false,
      count: counts.get(c.conn) ?? 0,
    }));
  process.stdout.write(
    JSON.stringify({
      summary: true,
      chunk_count: bag.header?.chunkCount ?? 0,
      connection_count: bag.header?.connectionCount ?? 0,
      connections,
    }) + "\n",
  );
}

main().catch((err) => {
  console.error(`foxglove_dump.mjs: ${err?.message ?? err}`);
  process.exit(2);
});
