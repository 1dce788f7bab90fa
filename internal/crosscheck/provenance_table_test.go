package crosscheck

// provenance is one "decoded" line of ../shared/bags/PROVENANCE.md, written
// there by an independent decoder: stamps counted per transform for
// TFMessage, stamp range in seconds printed with 3 decimals, zero stamps,
// backward steps of the stamp within the topic in receive order, scan array
// lengths (-1 when not a scan) and the frames seen (parent->child for tf;
// the list is cut off when truncated is true).
type provenance struct {
	bag, topic        string
	stamps            int
	minS, maxS        float64
	zero, backward    int
	ranges, intensity int
	truncated         bool
	frames            string
}

// provenanceTable: generated from PROVENANCE.md's "decoded" lines (a
// regular expression over the file; values unchanged).
var provenanceTable = []provenance{
	{"tb3-walker-humble-nitesh", "/tf_static", 8, 0.000, 0.000, 8, 0, -1, -1, false, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_link->camera_rgb_frame,camera_rgb_frame->camera_rgb_optical_frame"},
	{"tb3-walker-humble-nitesh", "/clock", 255, 0.296, 25.699, 0, 0, -1, -1, false, ""},
	{"tb3-walker-humble-nitesh", "/tf", 1735, 0.401, 25.765, 0, 0, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-walker-humble-nitesh", "/scan", 127, 0.567, 25.767, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-walker-humble-sameer", "/scan", 102, 1396.425, 1416.736, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-walker-humble-sameer", "/tf", 1318, 1396.450, 1416.748, 0, 0, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-walker-humble-sameer", "/tf_static", 8, 0.000, 0.000, 8, 0, -1, -1, false, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_link->camera_rgb_frame,camera_rgb_frame->camera_rgb_optical_frame"},
	{"tb3-walker-humble-sameer", "/clock", 261, 1396.500, 1416.755, 0, 0, -1, -1, false, ""},
	{"tb3-walker-simstart", "/tf_static", 10, 0.000, 0.000, 10, 0, -1, -1, true, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_depth_frame->camera_depth_optical_frame,camera_link->camera_depth_frame"},
	{"tb3-walker-simstart", "/clock", 84, 0.095, 8.376, 0, 0, -1, -1, false, ""},
	{"tb3-walker-simstart", "/tf", 562, 0.187, 8.381, 0, 0, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-walker-simstart", "/scan", 41, 0.353, 8.353, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-walker-no-metadata", "/tf_static", 8, 0.000, 0.000, 8, 0, -1, -1, false, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_link->camera_rgb_frame,camera_rgb_frame->camera_rgb_optical_frame"},
	{"tb3-walker-no-metadata", "/tf", 1850, 25.564, 52.594, 0, 0, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-walker-no-metadata", "/clock", 269, 25.630, 52.530, 0, 0, -1, -1, false, ""},
	{"tb3-walker-no-metadata", "/scan", 135, 25.736, 52.538, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-walker-corrupt-metadata", "/tf_static", 10, 0.000, 0.000, 10, 0, -1, -1, true, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_depth_frame->camera_depth_optical_frame,camera_link->camera_depth_frame"},
	{"tb3-walker-corrupt-metadata", "/tf", 1611, 6.068, 29.800, 0, 1, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-walker-corrupt-metadata", "/clock", 242, 6.175, 29.722, 0, 0, -1, -1, false, ""},
	{"tb3-walker-corrupt-metadata", "/scan", 118, 6.353, 29.753, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-roomba-v4-empty-scan", "/tf_static", 30, 0.000, 0.000, 30, 0, -1, -1, true, "base_footprint->base_link,base_link->base_scan,base_link->camera_link,base_link->caster_back_left_link,base_link->caster_back_right_link,base_link->imu_link,camera_depth_frame->camera_depth_optical_frame,camera_link->camera_depth_frame"},
	{"tb3-roomba-v4-empty-scan", "/clock", 277, 0.094, 26.398, 0, 0, -1, -1, false, ""},
	{"tb3-roomba-v4-empty-scan", "/tf", 3730, 0.381, 26.391, 0, 0, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-amcl-foxy-a", "/tf", 281, 319.686, 325.087, 0, 22, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,map->odom,odom->base_footprint"},
	{"tb3-amcl-foxy-a", "/tf_static", 352, 320.031, 324.155, 0, 0, -1, -1, false, "base_footprint->base_link,base_link->base_scan,base_link->caster_back_link,base_link->imu_link"},
	{"tb3-amcl-foxy-a", "/clock", 35, 320.921, 324.155, 0, 0, -1, -1, false, ""},
	{"tb3-amcl-foxy-a", "/scan", 17, 320.886, 324.087, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-amcl-foxy-b", "/tf", 71, 623.084, 625.918, 0, 11, -1, -1, false, "map->odom,odom->base_footprint"},
	{"tb3-amcl-foxy-b", "/clock", 54, 623.070, 625.102, 0, 0, -1, -1, false, ""},
	{"tb3-amcl-foxy-b", "/scan", 10, 623.111, 624.918, 0, 0, 360, 360, false, "base_scan"},
	{"tb3-unclean-wal-no-metadata", "/tf_static", 1821, 1383.192, 1696430108.316, 0, 1, -1, -1, false, "base_footprint->base_link,base_link->base_scan,base_link->caster_back_link,base_link->imu_link,map->odom"},
	{"tb3-unclean-wal-no-metadata", "/tf", 1439, 1383.154, 1406.002, 0, 1, -1, -1, false, "base_link->wheel_left_link,base_link->wheel_right_link,odom->base_footprint"},
	{"tb3-unclean-wal-no-metadata", "/clock", 225, 1383.493, 1405.960, 0, 0, -1, -1, false, ""},
	{"tb3-unclean-wal-no-metadata", "/scan", 114, 1383.405, 1406.004, 0, 0, 360, 360, false, "base_scan"},
	{"evo-nav2-turtlebot-mcap", "/tf", 7284, 928.800, 1026.400, 0, 1001, -1, -1, false, "base_link->left_wheel,base_link->right_wheel,map->odom,odom->base_link"},
	{"evo-nav2-turtlebot-mcap", "/tf_static", 29, 0.000, 0.000, 29, 0, -1, -1, true, "base_link->base_footprint,base_link->bump_front_center,base_link->bump_front_left,base_link->bump_front_right,base_link->bump_left,base_link->bump_right,base_link->bumper,base_link->front_caster_link"},
	{"evo-tf-example", "/tf_static", 1, 1714740908.048, 1714740908.048, 0, 0, -1, -1, false, "base_footprint->base_link"},
	{"evo-tf-example", "/tf", 517, 1714741164.178, 1714741215.785, 0, 0, -1, -1, false, "odom->base_footprint"},
	{"uts-pfms-quiz5", "/tf_static", 3, 0.010, 0.010, 0, 0, -1, -1, false, "orange/base_footprint->orange/base_link,orange/base_link->orange/front_laser_link,orange/base_link->orange/front_sonar_link"},
	{"uts-pfms-quiz5", "/tf", 907, 345.302, 346.631, 0, 34, -1, -1, false, "orange/base_link->orange/steer_fl,orange/base_link->orange/steer_fr,orange/base_link->orange/wheel_rl,orange/base_link->orange/wheel_rr,orange/steer_fl->orange/wheel_fl,orange/steer_fr->orange/wheel_fr,world->orange/base_footprint"},
	{"uts-pfms-quiz5", "/orange/laser/scan", 39, 345.312, 346.604, 0, 0, 640, 640, false, "orange/front_laser_link"},
	{"uts-pfms-a3-sample", "/tf", 200, 1279.600, 1281.590, 0, 0, -1, -1, false, "husky/base_link->husky/front_left_wheel_link,husky/base_link->husky/front_right_wheel_link,husky/base_link->husky/rear_left_wheel_link,husky/base_link->husky/rear_right_wheel_link,world->husky/base_link"},
	{"uts-pfms-a3-sample", "/husky/sonar", 1, 1279.601, 1279.601, 0, 0, 3, 3, false, "husky/sonar_link"},
	{"uts-pfms-a3-sample", "/tf_static", 8, 0.000, 0.000, 8, 0, -1, -1, false, "husky/base_link->husky/base_scan,husky/base_link->husky/camera_link,husky/base_link->husky/imu_link,husky/base_link->husky/sonar_link,husky/camera_depth_frame->husky/camera_depth_optical_frame,husky/camera_link->husky/camera_depth_frame,husky/camera_link->husky/camera_rgb_frame,husky/camera_rgb_frame->husky/camera_rgb_optical_frame"},
	{"uts-pfms-a3-sample", "/husky/laserscan", 1, 1279.719, 1279.719, 0, 0, 360, 360, false, "husky/base_scan"},
	{"selfdriving-real-scan-no-tf", "/scan", 177, 774.747, 809.947, 0, 0, 360, 360, false, "base_scan"},
	{"mumble-isaac-scan", "/scan", 147, 1741395031.958, 1741395051.564, 0, 0, 360, 0, false, "laser_frame"},
	{"rerun-rosbag2-humble-mcap", "/laser_scan", 1, 1757502238.483, 1757502238.483, 0, 0, 5, 5, false, "base_link"},
	{"rosbags-rs-test-bags/test_bag_mcap", "/test/sensor_msgs/laser_scan", 2, 1749315324.962, 1749315325.014, 0, 0, 5, 5, false, "test_frame"},
	{"rosbags-rs-test-bags/test_bag_mcap", "/test/tf2_msgs/tf_message", 2, 1749315325.011, 1749315325.014, 0, 0, -1, -1, false, "test_frame->child_frame"},
	{"rosbags-rs-test-bags/test_bag_sqlite3", "/test/sensor_msgs/laser_scan", 2, 1749315324.737, 1749315324.789, 0, 0, 5, 5, false, "test_frame"},
	{"rosbags-rs-test-bags/test_bag_sqlite3", "/test/tf2_msgs/tf_message", 2, 1749315324.787, 1749315324.790, 0, 0, -1, -1, false, "test_frame->child_frame"},
	{"tf-static-only-humble", "/tf_static", 1, 1731711598.036, 1731711598.036, 0, 0, -1, -1, false, "world->talk"},
}
