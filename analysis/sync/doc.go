// Package sync emulates message_filters' synchronizer policies,
// sync_policies::ApproximateTime and sync_policies::ExactTime, on stamp
// streams fed in receive order, as a live node sees them: it tells which
// sets a Synchronizer would emit, which messages it would drop, and why a
// synchronizer would never fire.
//
// The algorithm was read, not copied, from:
//   - ros2/message_filters include/message_filters/sync_policies/
//     approximate_time.hpp and exact_time.hpp (rolling; humble and jazzy's
//     approximate_time.h and exact_time.h make the same decisions);
//   - ros/ros_comm utilities/message_filters/include/message_filters/
//     sync_policies/approximate_time.h and exact_time.h (noetic-devel,
//     1.15.15): line numbers below refer to this version, the one Debian's
//     libmessage-filters-dev ships and ../shared/peers/sync-oracle runs.
//
// ROS 2 is emulated by default (FlavorROS2). FlavorROS1 reproduces the ROS 1
// library, which differs in exactly the ways the oracle's README lists and
// this package's tests assert: the optional reset on time jumps
// (Config.Reset), the rounding of the age-penalty product (double seconds
// rounded to the ns against rclcpp's long double truncated), the int32
// seconds range of ros::Duration (an exception: the Synchronizer aborts) and
// stamps that ros::Time cannot hold (negative, or beyond 2^32 s).
//
// Memory is bounded by the queue sizes: a Sync holds at most queue_size+1
// messages per topic (ApproximateTime) or queue_size tuples (ExactTime with
// a queue; queue 0, unbounded upstream, is refused by Config.Validate unless
// Unbounded is set). Tally keeps fixed-size histograms, not per-set lists.
package sync
