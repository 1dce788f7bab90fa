// Package ros1peer holds bagclock's independent ROS 1 peers and the tests
// that hold bagclock's ROS 1 reader and deserializer to them:
//
//   - rosbag_peer.py drives Debian's python3-rosbag, which writes the test
//     bags (every compression, two publishers on a topic, latched
//     /tf_static, a .bag.active copy) and reads them back;
//   - js/foxglove_dump.mjs reads the same bags with Foxglove's
//     @foxglove/rosbag, a second decoder written by neither.
//
// The package has no code of its own: only its tests.
package ros1peer
