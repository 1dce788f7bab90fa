package msgfilter

import (
	"slices"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// TestPresetValues pins every value of every preset to the upstream line it
// comes from, so that a changed number fails here and not silently in a
// replay; it reads them back from a buffer and filter built with the preset. The upstream column names where each value was read (search tool,
// 2026-12-02); "tf2 default cache" is BUFFER_CORE_DEFAULT_CACHE_TIME =
// std::chrono::seconds(10) in ros2/geometry2 tf2/include/tf2/buffer_core.hpp,
// which a tf2_ros::Buffer built without a cache_time uses.
func TestPresetValues(t *testing.T) {
	tests := []struct {
		name      string
		queue     int
		tolNS     int64
		timeoutNS int64
		cacheNS   int64
		target    string
		upstream  string
	}{
		{"rviz-laserscan", 10, 0, 0, 10 * sec, "",
			`ros2/rviz message_filter_display.hpp: IntProperty "Filter size" default 10 passed as the queue size; ` +
				`no buffer_timeout argument; laser_scan_display.cpp: setTolerance commented out; tf2 default cache`},
		{"rviz-display", 10, 0, 0, 10 * sec, "",
			`ros2/rviz message_filter_display.hpp (as rviz-laserscan, for every MessageFilterDisplay); tf2 default cache`},
		{"rviz-camera", 10, 0, 0, 10 * sec, "",
			`ros2/rviz camera_display.cpp: QueueSizeProperty(this, 10); no tolerance, no buffer_timeout; tf2 default cache`},
		{"slam_toolbox", 1, 0, 200 * ms, 30 * sec, "odom",
			`SteveMacenski/slam_toolbox slam_toolbox_common.cpp setParams: scan_queue_size_ = 1, odom_frame "odom", ` +
				`tf_buffer_duration 30.0 (setROSInterfaces: tf2_ros::Buffer(clock, tf_buffer_duration)); ` +
				`config/mapper_params_online_async.yaml: transform_timeout: 0.2 (on_activate: the filter's buffer_timeout)`},
		{"slam_toolbox-code-defaults", 1, 0, 500 * ms, 30 * sec, "odom",
			`SteveMacenski/slam_toolbox slam_toolbox_common.cpp setParams: transform_timeout default 0.5, ` +
				`scan_queue_size_ 1, tf_buffer_duration 30.0`},
		{"nav2-amcl", 10, 0, 1 * sec, 10 * sec, "odom",
			`ros-navigation/navigation2 amcl_node.cpp: initMessageFilters MessageFilter(..., odom_frame_id_, 10, ..., ` +
				`transform_tolerance_); transform_tolerance default 1.0, odom_frame_id default "odom"; ` +
				`initTransforms: tf2_ros::Buffer(get_clock()), tf2 default cache`},
		{"nav2-obstacle-layer", 50, 50 * ms, 300 * ms, 10 * sec, "odom",
			`ros-navigation/navigation2 obstacle_layer.cpp onInitialize: LaserScan MessageFilter(..., global_frame_, 50, ..., ` +
				`transform_tolerance) and setTolerance(tf_filter_tolerance), default 0.05; costmap_2d_ros.cpp: ` +
				`transform_tolerance default 0.3; tf2 default cache`},
		{"nav2-obstacle-layer-pointcloud", 50, 0, 300 * ms, 10 * sec, "odom",
			`ros-navigation/navigation2 obstacle_layer.cpp onInitialize: PointCloud2 MessageFilter(..., 50, ..., ` +
				`transform_tolerance), no setTolerance; costmap_2d_ros.cpp: transform_tolerance default 0.3; tf2 default cache`},
	}
	var names []string
	for _, tt := range tests {
		names = append(names, tt.name)
		pr, ok := Presets[tt.name]
		if !ok {
			t.Errorf("preset %q missing", tt.name)
			continue
		}
		// Built as the package documentation says a replay for the
		// consumer is built (tf.NewBuffer turns a cache time of 0 into
		// its default, so the preset's own field is compared too).
		buf := tf.NewBuffer(tf.Options{CacheTimeNS: pr.CacheTimeNS})
		f := New(buf, pr.Target, pr.Params, nil)
		want := Params{QueueSize: tt.queue, ToleranceNS: tt.tolNS, BufferTimeoutNS: tt.timeoutNS}
		if pr.Name != tt.name || f.Params() != want || pr.CacheTimeNS != tt.cacheNS || buf.CacheTimeNS() != tt.cacheNS ||
			!slices.Equal(f.Targets(), []string{tt.target}) {
			t.Errorf("%s: got name %q, %+v, cache %d ns, targets %q\nwant %+v, cache %d ns, target %q (%s)",
				tt.name, pr.Name, f.Params(), pr.CacheTimeNS, f.Targets(), want, tt.cacheNS, tt.target, tt.upstream)
		}
		if !strings.Contains(pr.Source, strings.Fields(tt.upstream)[0]) {
			t.Errorf("%s: Source %q does not name %s", tt.name, pr.Source, strings.Fields(tt.upstream)[0])
		}
	}
	for name := range Presets {
		if !slices.Contains(names, name) {
			t.Errorf("preset %q has no pinned values here", name)
		}
	}
}
