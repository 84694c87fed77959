// Found first on the include path of keff's host-only targets (cmake/KeffHostOnly.cmake), so that any
// include of Kokkos reaching them, directly or through another header, stops the build here.
#error "a host-only keff target (io/, mpi/ host part, the CLI) includes a Kokkos header: keep Kokkos out of files that parse, read or write (see README, 'Host and device')"
