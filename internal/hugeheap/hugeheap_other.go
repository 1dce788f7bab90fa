//go:build !linux

package hugeheap

// Advised returns 0: huge pages are advised on Linux only.
func Advised() uintptr { return 0 }

// AdviseBlock returns 0: huge pages are advised on Linux only.
func AdviseBlock(int) uintptr { return 0 }
