package scenario

// RepairCase is one clock fault `bagclock fix` must repair (issue 24's
// test list), as a generated bag at sample size.
type RepairCase struct {
	Name string
	Spec Spec
	// Drops: the input drops messages in the emulated MessageFilter (a
	// case whose fault costs no drop still has its classes to repair).
	Drops bool
}

// RepairCases lists the faults fix is tested on, in a fixed order: laser
// on system time, tf on system time, stamps of 0, a skewed machine, a tf
// publisher on the other clock, several sensors (laser, lidar, imu and
// camera on system time).
func RepairCases() []RepairCase {
	get := func(name string, sensors bool) Spec {
		s, _ := Get(name) // known names
		s = s.Sample()
		s.Sensors = sensors
		return s
	}
	return []RepairCase{
		{Name: "laser_on_system_time", Spec: get(LaserSystemTFSim, false), Drops: true},
		{Name: "tf_on_system_time", Spec: get(LaserSimTFSystem, false), Drops: true},
		{Name: "stamps_of_0", Spec: get(LaserZeroStamp, false)},
		{Name: "skewed_machine", Spec: get(Skew2500ms, false), Drops: true},
		{Name: "tf_publisher_on_other_clock", Spec: get(TFDetectorSystem, false)},
		{Name: "several_sensors", Spec: get(LaserSystemTFSim, true), Drops: true},
	}
}
