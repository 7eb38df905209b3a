// Command benchupload is `make bench-upload`: video source uploads driven by the real terraform
// against the emulator's binary over loopback, beside curl posting the same bytes, printed as a
// markdown table for BENCHMARKS.md. Run it from the repository's root; BENCHMARKS.md says what
// each scenario measures and the BENCH_UPLOAD_* variables that shrink it.
//
//	throughput  a random source of the first size of BENCH_UPLOAD_SIZES (default 1 GiB) uploaded
//	            by `terraform apply` of one videohost_video, unthrottled, against curl posting the
//	            same bytes to the same emulator as Content-Range chunks of the same size,
//	            sequentially, on one connection. Both are timed from the first chunk's arrival at
//	            the emulator (its statistics' rateLimits.uploads.first) to the moment the last chunk
//	            made the source complete (its control API's completedAt), read once the upload is
//	            over. Median of BENCH_UPLOAD_RUNS pairs (default 3).
//	reads       in the same runs, the bytes the provider read (rchar, summed over every provider
//	            process terraform starts) in the apply that creates the video and in a refreshing
//	            `terraform plan` right after, per byte of the file; and end to end, curl's create
//	            and chunks against terraform apply's whole wall, and against the apply of a plan
//	            saved by `terraform plan -out`.
//	many        BENCH_UPLOAD_MANY sources (default 20) of BENCH_UPLOAD_MANY_MIB (default 1024)
//	            created by one apply, then a refreshing `terraform plan` over them.
//	memory      the provider's peak RSS while applying the first and the last size of
//	            BENCH_UPLOAD_SIZES (default 1 GiB and 4 GiB).
//	pacing      20 chunks of 5 MiB under an uploads limit of 5 per 3 s.
//	resume      SIGINT to terraform once half of a BENCH_UPLOAD_RESUME_MIB source (default 512)
//	            reached the emulator, then a second apply.
//	faults      20% of the chunks stored and answered 500, and the first chunk's connection cut.
//	wan         a long path modelled by Toxiproxy 2.5 (25 ms and 100 Mbit/s each way per
//	            connection) under each limit set of BENCH_UPLOAD_WAN_LIMITS, for the provider's
//	            choice of chunks, BENCH_UPLOAD_WAN_FLIGHTS and BENCH_UPLOAD_WAN_CHOSEN, against curl.
//
// BENCH_UPLOAD_SCENARIOS picks scenarios. Files live in a temporary directory (TMPDIR) removed on
// every exit; each scenario runs its own emulator on a free loopback port, and terraform finds the
// provider built here through a dev_overrides CLI configuration in that directory. Terraform
// starts this program under the provider's name: it then runs the provider and records its peak
// RSS and the bytes it read (provider_wrapper_linux.go). Every process it starts leads a process
// group of its own and is stopped on success, on failure and on Ctrl-C. Never part of
// `make test` or CI: it moves gigabytes.
package main

import "os"

func main() { os.Exit(run()) }
