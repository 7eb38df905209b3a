package lifecycle

import (
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Terraform ends a run gracefully on SIGINT and on SIGTERM alike: it stops the providers'
// requests, closes the run's ephemeral resources and then stops each provider through the
// plugin protocol. A CI system that cancels a job sends SIGTERM to the whole process group, so
// the provider receives it too, at the same moment as Terraform. The plugin library ignores
// SIGINT for that reason; SIGTERM would kill the provider at once, before Terraform closes the
// ephemeral upload tokens it opened, which would then stay usable until their ttl ends. So the
// provider ignores SIGTERM too while Terraform, its parent, lives, and leaves its stopping to
// Terraform, as for Ctrl-C.
//
// A Terraform that dies without stopping the provider (kill -9, an out-of-memory kill) would
// leave it running, reparented, serving nobody. The provider watches its parent and, once it
// is gone, deletes the ephemeral upload tokens it opened and exits.

// parentPoll is how often the provider checks that its parent lives.
const parentPoll = 250 * time.Millisecond

// watchProcess ignores SIGTERM and calls gone once the parent process that started this one
// has exited (this process was reparented); it returns at once.
func watchProcess(gone func()) {
	terms := make(chan os.Signal, 1)
	signal.Notify(terms, syscall.SIGTERM)
	go func() {
		for range terms {
			log.Printf("[INFO] received SIGTERM: Terraform, which receives it too, ends the run and stops the provider")
		}
	}()
	parent := os.Getppid()
	go func() {
		for !parentGone(parent, os.Getppid()) {
			time.Sleep(parentPoll)
		}
		gone()
	}()
}

// parentGone reports whether the parent that started the process, first, is gone, given the
// process's parent now: a process whose parent exits is handed to another (init, or a
// subreaper), so its parent changes. A first parent of 1 (started by init) is never gone.
func parentGone(first, now int) bool {
	return first > 1 && now != first
}

// parentGoneExit is what the provider does once Terraform has died: it deletes the ephemeral
// upload tokens that Terraform will never close, and exits.
func parentGoneExit(leftovers Leftovers) {
	// Terraform read the provider's standard error: a write to it now would kill the process
	// with SIGPIPE before the tokens are deleted. Ignored, the write fails and is dropped.
	signal.Ignore(syscall.SIGPIPE)
	log.Printf("[WARN] Terraform exited without stopping the provider; deleting its ephemeral upload tokens and exiting")
	deleteUnclosedTokens(leftovers)
	os.Exit(1)
}
