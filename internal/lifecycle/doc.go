// Package lifecycle is the provider process's life around the plugin server: what it does when
// Terraform starts it, signals it, stops it or dies, and the cleaner, the same executable started
// again by the provider to delete the ephemeral upload tokens that it could not delete before
// Terraform ends it. main chooses between the two; the provider's kinds reach this package only
// through the Leftovers that main passes in.
package lifecycle
