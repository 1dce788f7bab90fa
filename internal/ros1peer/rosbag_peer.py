#!/usr/bin/python3
"""Writes and reads ROS 1 bags with Debian's real rosbag library
(python3-rosbag), for bagclock's differential tests.

  rosbag_peer.py write OUT COMPRESSION SCENARIO [ACTIVE_COPY]
      COMPRESSION: none | bz2 | lz4
      SCENARIO: healthy | scan_on_system_time | zero_stamps | legacy_tf | tiny
                | several_connections | skew | clock_back
        (zero_stamps: /scan stamped 0 throughout; legacy_tf: /tf written
        as the ROS 1 tf package's tf/tfMessage, as pre-tf2 recorders did;
        several_connections: one connection record per topic and callerid,
        as rosbag record writes them, and a second latched /tf_static
        publisher; skew: /scan stamped 0.25 s ahead of /clock and tf, so
        every scan waits for tf; clock_back: /clock, tf and /scan start
        again at 100 s after 20 s, as a looping rosbag play --clock does)
      ACTIVE_COPY: also copy the file as it stood before close (index_pos
      still 0, no index: what a crash leaves as .bag.active)
  rosbag_peer.py split PREFIX COMPRESSION REPEAT
      what rosbag record --split --duration=20 leaves of the healthy
      scenario: PREFIX_0.bag and PREFIX_1.bag, 20 s each; the latched
      /tf_static is in the first file only, unless REPEAT is "repeat"
      (--repeat-latched): then the second file starts with a copy written
      as ros_comm's Recorder::startWriting writes it (record time = the
      split's start, a connection header without callerid or latching)
  rosbag_peer.py large OUT COMPRESSION SECONDS
      the benchmark bag: SECONDS of 20 Hz scans of 1080 ranges and 1080
      intensities from /hokuyo_node, 100 Hz /tf, 100 Hz /clock and a latched
      /tf_static (600 s: about 117 MB uncompressed), rosbag's default chunk
      threshold (768 KiB)
  rosbag_peer.py dump BAG
      one JSON line per message in file order: topic, record time (ns),
      callerid, latching, sha256 of the serialized bytes, and the header
      stamps (a stamped message's header, every transform of a TFMessage,
      a Clock's clock), then a summary line of rosbag's own counts.
"""
import hashlib
import json
import shutil
import sys

import rosbag
import genpy
from rosgraph_msgs.msg import Clock, Log
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage
from geometry_msgs.msg import TransformStamped

SIM0 = 100  # /clock starts at 100 s of sim time
SYSTEM = 1700000000  # a system-clock stamp (Nov 2023)


def tf(parent, child, stamp, x=0.0):
    t = TransformStamped()
    t.header.frame_id = parent
    t.header.stamp = stamp
    t.child_frame_id = child
    t.transform.translation.x = x
    t.transform.rotation.w = 1.0
    return t


def conn(callerid, latching=False, msg=None, typ=None):
    h = {"callerid": callerid}
    if msg is not None:
        h.update({"type": typ or msg._type, "md5sum": msg._md5sum, "message_definition": msg._full_text})
    if latching:
        h["latching"] = "1"
    return h


class ConnectionPerCallerid:
    """Writes through rosbag.Bag.write, one connection per (topic, callerid).

    rosbag record (the C++ rosbag::Bag) opens a connection for every distinct
    connection header, so a topic with two publishers has two connection
    records; python's Bag.write keeps one connection per topic and ignores
    later headers. Swapping the library's per-topic entry before each write
    makes it write a connection record (and per-connection index records)
    for each publisher, as the recorder does.
    """

    def __init__(self, bag):
        self.bag = bag
        self.known = {}

    def write(self, topic, msg, t, connection_header):
        key = (topic, connection_header["callerid"])
        if key in self.known:
            self.bag._topic_connections[topic] = self.known[key]
        else:
            self.bag._topic_connections.pop(topic, None)
        self.bag.write(topic, msg, t, connection_header=connection_header)
        self.known[key] = self.bag._topic_connections[topic]


def write(out, compression, scenario, active_copy=None):
    bag = rosbag.Bag(out, "w", compression=compression, chunk_threshold=8 * 1024)
    try:
        writer = ConnectionPerCallerid(bag) if scenario == "several_connections" else bag
        t0 = genpy.Time(SIM0)
        # Latched static transforms, one publisher, written first (as
        # rosbag record writes what a latched publisher sends on connect).
        st = TFMessage(transforms=[tf("/base_link", "laser", t0), tf("base_link", "imu", t0)])
        writer.write("/tf_static", st, genpy.Time(SYSTEM), connection_header=conn("/robot_state_publisher", True, st))
        if scenario == "several_connections":
            st = TFMessage(transforms=[tf("base_link", "camera", t0)])
            writer.write("/tf_static", st, genpy.Time(SYSTEM, 1000), connection_header=conn("/camera_static_tf", True, st))
        for i in range(4 if scenario == "tiny" else 400):  # 40 s at 10 Hz of sim time (tiny: fuzz seeds)
            step = i - 200 if scenario == "clock_back" and i >= 200 else i
            sim = genpy.Time(SIM0) + genpy.Duration(0, step * 100_000_000)
            rec = genpy.Time(SYSTEM) + genpy.Duration(0, i * 100_000_000)  # record time: wall clock
            c = Clock(clock=sim)
            bag.write("/clock", c, rec, connection_header=conn("/play", msg=c))
            # Two publishers on /tf: odom->base_link and map->odom.
            # tf/tfMessage has tf2_msgs/TFMessage's definition and md5sum.
            tftype = "tf/tfMessage" if scenario == "legacy_tf" else None
            m = TFMessage(transforms=[tf("odom", "base_link", sim, 0.01 * i)])
            writer.write("/tf", m, rec, connection_header=conn("/robot_base", msg=m, typ=tftype))
            if i % 2 == 0:
                m = TFMessage(transforms=[tf("/map", "odom", sim)])
                writer.write("/tf", m, rec, connection_header=conn("/amcl", msg=m, typ=tftype))
            s = LaserScan()
            s.header.seq = i
            s.header.frame_id = "laser"
            s.header.stamp = sim - genpy.Duration(0, 5_000_000)
            if scenario == "scan_on_system_time":
                s.header.stamp = rec - genpy.Duration(0, 5_000_000)
            if scenario == "skew":
                s.header.stamp = sim + genpy.Duration(0, 250_000_000)
            if scenario == "zero_stamps":
                s.header.stamp = genpy.Time(0)
            s.time_increment, s.scan_time = 0.0001, 0.1
            s.intensities = [float(k % 7) for k in range(i % 3 * 100)]
            s.angle_min, s.angle_max, s.angle_increment = -1.5, 1.5, 0.01
            s.range_min, s.range_max = 0.1, 30.0
            s.ranges = [1.0 + 0.001 * k for k in range(300)]
            bag.write("/scan", s, rec, connection_header=conn("/hokuyo_node", msg=s))
            if i % 50 == 0:
                log = Log(level=Log.INFO, name="/hokuyo_node", msg="scan %d" % i,
                          file="hokuyo_node.cpp", function="scanThread", line=400 + i,
                          topics=["/scan", "/rosout"][: i % 3])
                log.header.stamp = sim
                log.header.seq = i
                bag.write("/rosout", log, rec, connection_header=conn("/rosout", msg=log))
            if i == 200 and active_copy:
                # What a crash leaves: the chunks written so far, the bag
                # header still saying index_pos 0.
                bag._file.flush()
                shutil.copyfile(out, active_copy)
    finally:
        bag.close()


def split(prefix, compression, repeat):
    t0 = genpy.Time(SIM0)
    st = TFMessage(transforms=[tf("/base_link", "laser", t0), tf("base_link", "imu", t0)])
    for part in range(2):
        bag = rosbag.Bag("%s_%d.bag" % (prefix, part), "w", compression=compression, chunk_threshold=8 * 1024)
        try:
            start = genpy.Time(SYSTEM) + genpy.Duration(20 * part)
            if part == 0:
                bag.write("/tf_static", st, start, connection_header=conn("/robot_state_publisher", True, st))
            elif repeat == "repeat":
                bag.write("/tf_static", st, start)  # no connection header: rosbag makes one without callerid
            for i in range(200 * part, 200 * part + 200):
                sim = genpy.Time(SIM0) + genpy.Duration(0, i * 100_000_000)
                rec = genpy.Time(SYSTEM) + genpy.Duration(0, i * 100_000_000)
                c = Clock(clock=sim)
                bag.write("/clock", c, rec, connection_header=conn("/play", msg=c))
                m = TFMessage(transforms=[tf("odom", "base_link", sim, 0.01 * i)])
                bag.write("/tf", m, rec, connection_header=conn("/robot_base", msg=m))
                s = LaserScan()
                s.header.seq = i
                s.header.frame_id = "laser"
                s.header.stamp = sim - genpy.Duration(0, 5_000_000)
                s.angle_min, s.angle_max, s.angle_increment = -1.5, 1.5, 0.01
                s.range_min, s.range_max = 0.1, 30.0
                s.ranges = [1.0 + 0.001 * k for k in range(300)]
                bag.write("/scan", s, rec, connection_header=conn("/hokuyo_node", msg=s))
        finally:
            bag.close()


def large(out, compression, seconds):
    bag = rosbag.Bag(out, "w", compression=compression)
    try:
        t0 = genpy.Time(SIM0)
        st = TFMessage(transforms=[tf("base_link", "laser", t0)])
        bag.write("/tf_static", st, genpy.Time(SYSTEM), connection_header=conn("/robot_state_publisher", True, st))
        s = LaserScan()
        s.header.frame_id = "laser"
        s.angle_min, s.angle_max, s.angle_increment = -2.35, 2.35, 0.0043
        s.time_increment, s.scan_time = 0.00004, 0.05
        s.range_min, s.range_max = 0.1, 30.0
        s.ranges = [1.0 + 0.001 * k for k in range(1080)]
        s.intensities = [float(k % 100) for k in range(1080)]
        m = TFMessage(transforms=[tf("odom", "base_link", t0)])
        c = Clock()
        for i in range(int(seconds) * 100):  # 10 ms steps
            sim = genpy.Time(SIM0) + genpy.Duration(0, i * 10_000_000)
            rec = genpy.Time(SYSTEM) + genpy.Duration(0, i * 10_000_000)
            c.clock = sim
            bag.write("/clock", c, rec, connection_header=conn("/play", msg=c))
            m.transforms[0].header.stamp = sim
            m.transforms[0].transform.translation.x = 0.001 * i
            bag.write("/tf", m, rec + genpy.Duration(0, 1000), connection_header=conn("/robot_base", msg=m))
            if i % 5 == 0:
                s.header.seq = i // 5
                s.header.stamp = sim - genpy.Duration(0, 5_000_000)
                bag.write("/scan", s, rec + genpy.Duration(0, 2000), connection_header=conn("/hokuyo_node", msg=s))
    finally:
        bag.close()


def stamps(msg):
    if hasattr(msg, "transforms"):
        return [[t.header.stamp.to_nsec(), t.header.frame_id, t.child_frame_id] for t in msg.transforms]
    if hasattr(msg, "clock"):
        return [[msg.clock.to_nsec()]]
    if hasattr(msg, "header"):
        return [[msg.header.stamp.to_nsec(), msg.header.frame_id, msg.header.seq]]
    return []


def fields(msg):
    """The decoded fields bagclock's ROS 1 deserializer reads, per type."""
    if hasattr(msg, "transforms"):
        return [[t.header.seq, t.header.stamp.secs, t.header.stamp.nsecs, t.header.frame_id, t.child_frame_id,
                 t.transform.translation.x, t.transform.translation.y, t.transform.translation.z,
                 t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w]
                for t in msg.transforms]
    if hasattr(msg, "clock"):
        return [msg.clock.secs, msg.clock.nsecs]
    if hasattr(msg, "level"):
        return [msg.header.seq, msg.header.stamp.secs, msg.header.stamp.nsecs, msg.header.frame_id, msg.level,
                msg.name, msg.msg, msg.file, msg.function, msg.line, list(msg.topics)]
    if hasattr(msg, "ranges"):
        return [msg.header.seq, msg.header.stamp.secs, msg.header.stamp.nsecs, msg.header.frame_id,
                msg.time_increment, msg.scan_time, len(msg.ranges), len(msg.intensities)]
    return None


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def dump(path):
    counts = {}
    with rosbag.Bag(path) as bag:
        for topic, raw, t, conn_header in bag.read_messages(raw=True, return_connection_header=True):
            data = raw[1]
            msg = raw[4]()
            msg.deserialize(data)
            print(json.dumps({
                "topic": topic,
                "time": t.to_nsec(),
                "callerid": conn_header.get("callerid", b"").decode() if isinstance(conn_header.get("callerid", b""), bytes) else conn_header.get("callerid", ""),
                "latching": text(conn_header.get("latching", "")) == "1",
                "sha256": hashlib.sha256(data).hexdigest(),
                "stamps": stamps(msg),
                "type": raw[0],
                "fields": fields(msg),
            }))
            counts[topic] = counts.get(topic, 0) + 1
        info = bag.get_type_and_topic_info()
        print(json.dumps({"summary": True, "counts": counts,
                          "message_count": bag.get_message_count(),
                          "types": {k: v.msg_type for k, v in info.topics.items()},
                          "connections": {k: v.connections for k, v in info.topics.items()}}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif sys.argv[1] == "split":
        split(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "large":
        large(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        sys.exit("usage: rosbag_peer.py write OUT COMPRESSION SCENARIO [ACTIVE_COPY] | large OUT COMPRESSION SECONDS | dump BAG")
