// Package hugeheap, imported for its side effect, asks the kernel for
// transparent huge pages on the part of the Go heap that the package
// initialisers after it allocate from, where the kernel gives them only on
// request (transparent_hugepage "madvise" mode, as on the benchmark VM).
//
// Why: the Go runtime asks for no huge pages itself, so each 4 KiB heap
// page costs a page fault at first touch, and under the benchmark VM's
// paravirtualised hypervisor one costs 11–17 µs. bagclock's initialisers
// (aws-sdk-go-v2's endpoint tables and schemas above all) allocate about
// 1.4 MiB: some 360 of the 650 page faults of `bagclock --version`, about
// 4 ms of its 17 (docs/performance.md).
//
// It runs before every package but the runtime's and a few of the
// standard library's: it imports only runtime, syscall and unsafe, and Go
// initialises the lexically first package whose imports are ready.
package hugeheap
