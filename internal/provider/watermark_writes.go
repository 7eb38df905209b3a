package provider

// What the watermark's create and delete send: its writeTarget.

import "github.com/hashicorp/terraform-plugin-framework/path"

// watermarkWrites names the watermark for the shared create and delete machinery; the
// service's file is the configuration's source_file.
var watermarkWrites = writeTarget{kind: "Watermark", attrs: map[string]path.Path{
	"file": path.Root("source_file"), "watermarkId": path.Root("id"),
}}
