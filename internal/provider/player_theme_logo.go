package provider

// logoImage bounds a player theme's logo as the service does: a JPEG or PNG of at most
// 200 × 100 pixels and 100 KiB.
var logoImage = imageLimits{maxWidth: 200, maxHeight: 100, maxBytes: 100 << 10}
