package msgfilter

import "github.com/bagclock/bagclock/analysis/tf"

// Preset is the MessageFilter configuration of a consumer users actually
// run, with the tf buffer cache time that consumer's tf2_ros::Buffer uses.
type Preset struct {
	Name   string
	Params Params
	// CacheTimeNS is the consumer's tf2_ros::Buffer cache_time, to pass to
	// tf.Options when replaying for this consumer.
	CacheTimeNS int64
	// Target is the consumer's default target frame ("" when the user
	// chooses it, as RViz's Fixed Frame).
	Target string
	// Source says where the values were read.
	Source string
}

const (
	ms  = int64(1_000_000)
	sec = int64(1_000_000_000)
)

// Presets maps a preset name to its configuration. Values were read from the
// sources named in Source (search tool, public repositories); see each
// comment for what is and is not verified.
var Presets = map[string]Preset{
	"rviz-laserscan": {
		Name: "rviz-laserscan",
		Params: Params{
			// rviz_common MessageFilterDisplay constructor: IntProperty
			// "Filter size", default 10, handed to the tf2_ros::MessageFilter
			// in subscribe() (exposed by ros2/rviz#593, 2020, so in Jazzy).
			QueueSize: 10,
			// LaserScanDisplay::processMessage keeps the ROS 1 setTolerance
			// code commented out ("Reenable once tf_filter is ported"):
			// no tolerance.
			ToleranceNS: 0,
			// subscribe() passes no buffer_timeout: tf2_ros's default
			// duration::max, i.e. none.
			BufferTimeoutNS: 0,
		},
		// Not verified in RViz's TFWrapper: assumed tf2_ros::Buffer's
		// default cache of 10 s.
		CacheTimeNS: tf.DefaultCacheTimeNS,
		Target:      "",
		Source: "ros2/rviz rviz_common/include/rviz_common/message_filter_display.hpp " +
			"(MessageFilterDisplay(), subscribe()); rviz_default_plugins laser_scan_display.cpp " +
			"(processMessage); cache time unverified (tf2_ros default)",
	},
	"slam_toolbox": {
		Name: "slam_toolbox",
		Params: Params{
			// SlamToolbox::setParams: scan_queue_size_ = 1 unless the
			// parameter is set; the shipped config files do not set it.
			QueueSize: 1,
			// No setTolerance call in slam_toolbox_common.cpp.
			ToleranceNS: 0,
			// on_activate passes transform_timeout_ as the filter's
			// buffer_timeout; config/mapper_params_online_async.yaml sets
			// transform_timeout: 0.2 (the code default is 0.5, see
			// "slam_toolbox-code-defaults").
			BufferTimeoutNS: 200 * ms,
		},
		// setROSInterfaces: tf2_ros::Buffer(clock, tf_buffer_duration);
		// tf_buffer_duration defaults to 30.0 and the yaml sets 30.
		CacheTimeNS: 30 * sec,
		Target:      "odom", // odom_frame default in setParams and in the yaml
		Source: "SteveMacenski/slam_toolbox src/slam_toolbox_common.cpp (setParams, " +
			"setROSInterfaces, on_activate) and config/mapper_params_online_async.yaml",
	},
	"slam_toolbox-code-defaults": {
		Name: "slam_toolbox-code-defaults",
		Params: Params{
			QueueSize:       1,
			ToleranceNS:     0,
			BufferTimeoutNS: 500 * ms, // transform_timeout default 0.5 in setParams
		},
		CacheTimeNS: 30 * sec,
		Target:      "odom",
		Source:      "SteveMacenski/slam_toolbox src/slam_toolbox_common.cpp (setParams, on_activate)",
	},
	"nav2-amcl": {
		Name: "nav2-amcl",
		Params: Params{
			// AmclNode::initMessageFilters: queue size 10, hard-coded.
			QueueSize: 10,
			// No setTolerance: transform_tolerance goes into the
			// buffer_timeout argument instead.
			ToleranceNS: 0,
			// transform_tolerance, declared with default 1.0 in the
			// AmclNode constructor, passed as buffer_timeout.
			BufferTimeoutNS: 1 * sec,
		},
		// initTransforms: tf2_ros::Buffer(get_clock()), default cache 10 s.
		CacheTimeNS: tf.DefaultCacheTimeNS,
		Target:      "odom", // odom_frame_id default
		Source: "ros-navigation/navigation2 nav2_amcl/src/amcl_node.cpp (AmclNode(), " +
			"initTransforms, initMessageFilters)",
	},
	"nav2-obstacle-layer": {
		Name: "nav2-obstacle-layer",
		Params: Params{
			// ObstacleLayer::onInitialize: LaserScan filter queue size 50.
			QueueSize: 50,
			// setTolerance(0.05 s) on LaserScan notifiers (hard-coded in
			// Humble/Jazzy-era sources, parameter tf_filter_tolerance with
			// default 0.05 on main).
			ToleranceNS: 50 * ms,
			// The costmap's transform_tolerance, passed as buffer_timeout;
			// Costmap2DROS declares it with default 0.3.
			BufferTimeoutNS: 300 * ms,
		},
		// Not verified in Costmap2DROS: assumed tf2_ros::Buffer's default.
		CacheTimeNS: tf.DefaultCacheTimeNS,
		// The costmap's global_frame: odom for the local costmap, map for
		// the global one.
		Target: "odom",
		Source: "ros-navigation/navigation2 nav2_costmap_2d/plugins/obstacle_layer.cpp " +
			"(ObstacleLayer::onInitialize); transform_tolerance default 0.3 from " +
			"Costmap2DROS's parameter declarations; cache time unverified (tf2_ros default)",
	},
	"rviz-display": {
		Name: "rviz-display",
		Params: Params{
			// Every RViz display built on rviz_common::MessageFilterDisplay
			// (PointCloud2, PointCloud, Range, Odometry, Pose,
			// PoseWithCovariance, ... in rviz_default_plugins) gets the same
			// filter as the LaserScan display: "Filter size" 10, no
			// tolerance, no buffer_timeout (see rviz-laserscan).
			QueueSize:       10,
			ToleranceNS:     0,
			BufferTimeoutNS: 0,
		},
		CacheTimeNS: tf.DefaultCacheTimeNS, // as rviz-laserscan: tf2_ros default, unverified
		Target:      "",
		Source: "ros2/rviz rviz_common/include/rviz_common/message_filter_display.hpp " +
			"(MessageFilterDisplay(), subscribe()); the same for every display deriving from it; " +
			"cache time unverified (tf2_ros default)",
	},
	"rviz-camera": {
		Name: "rviz-camera",
		Params: Params{
			// CameraDisplay: QueueSizeProperty(this, 10). The current
			// camera_display.cpp looks the image's transform up at render
			// time (FrameManager::getTransform with the image stamp) rather
			// than through a tf2_ros::MessageFilter; the emulation treats
			// the queue of 10 as a MessageFilter's, which is what an image
			// waiting for its transform meets in RViz releases that filter
			// images. No tolerance, no buffer_timeout.
			QueueSize:       10,
			ToleranceNS:     0,
			BufferTimeoutNS: 0,
		},
		CacheTimeNS: tf.DefaultCacheTimeNS,
		Target:      "",
		Source: "ros2/rviz rviz_default_plugins/src/rviz_default_plugins/displays/camera/camera_display.cpp " +
			"(CameraDisplay(), updateCamera); MessageFilter behaviour approximated, cache time unverified",
	},
	"nav2-obstacle-layer-pointcloud": {
		Name: "nav2-obstacle-layer-pointcloud",
		Params: Params{
			// ObstacleLayer::onInitialize: the PointCloud2 filter also has
			// queue size 50 and transform_tolerance as buffer_timeout, but
			// setTolerance is called on LaserScan notifiers only.
			QueueSize:       50,
			ToleranceNS:     0,
			BufferTimeoutNS: 300 * ms,
		},
		CacheTimeNS: tf.DefaultCacheTimeNS,
		Target:      "odom",
		Source: "ros-navigation/navigation2 nav2_costmap_2d/plugins/obstacle_layer.cpp " +
			"(ObstacleLayer::onInitialize, PointCloud2 branch; the voxel layer inherits it); " +
			"cache time unverified (tf2_ros default)",
	},
}
