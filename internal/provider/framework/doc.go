// Package framework is the shared Terraform glue of the provider's kinds: the provider's
// configured data (provider_data.go), the shells of data sources and list resources
// (data_source.go, list_resource.go), the pieces a resource embeds (managed_resource.go:
// ManagedBase, DeletedByID, WithIDImport, WithPlannedUpdate), the writes settled the same way for
// every kind (writes.go, adoption.go), identities, validators, diagnostics, custom types
// (string_set_type.go, whole_number_type.go), the timeouts block, files and images as sources
// (file_hash_records.go, thumbnail_file.go, image_plan.go, image_writes.go), and the move from
// the generic REST provider's restapi_object (restapi_move.go). It registers nothing itself.
package framework
