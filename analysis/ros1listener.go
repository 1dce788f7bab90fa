package analysis

// A ROS 1 consumer's tf2_ros::TransformListener and a backward jump of ROS
// time. Noetic's listener (ros/geometry2 noetic-devel,
// tf2_ros/src/transform_listener.cpp at 274e56b,
// subscription_callback_impl; rospy's tf2_ros/transform_listener.py,
// check_for_reset, does the same) has no jump callback on the clock, unlike
// ROS 2's tf2_ros::Buffer. It checks at every /tf and /tf_static message:
// when ros::Time::now() is below the value at its previous tf message
// (last_update_), it logs "Detected jump back in time of Xs. Clearing TF
// buffer.", calls BufferCore::clear() (dynamic data only: StaticCache's
// clearList does nothing) and, in that one message, skips every transform
// stamped after now. last_update_ then takes now. So the clear falls at the
// first tf message after /clock went back, and not at all when /clock is
// past last_update_ again by then.
//
// Under use_sim_time ros::Time::now() is the last /clock received (0
// before the first); a bag without /clock was played to a node on wall
// time, which does not go back, so nothing is cleared. rospy clears too, so
// RclpyBuffer (rclpy's buffer, which never clears) does not apply to ROS 1.

// ros1Listen applies the check to the tf message about to be stored in t.
// It reports whether the buffer was reset and ROS time now; for a ROS 2
// bag it does nothing.
func (a *analyzer) ros1Listen(t *tfReplay) (reset bool, now int64) {
	if !a.wire.ROS1 || !a.hasClock {
		return false, 0
	}
	if a.clock.seen {
		now = a.clock.ns
	}
	if now < t.lastUpdate {
		t.buf.Clear()
		a.clock.reset, a.clock.resetTo = true, now
		reset = true
	}
	t.lastUpdate = now
	return reset, now
}
