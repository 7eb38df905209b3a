# An upload token is imported by its fingerprint, the first 16 hexadecimal digits of the SHA-256
# of the token (never by the token itself, which Terraform would print):
#   printf %s "$UPLOAD_TOKEN" | sha256sum | cut -c1-16
terraform import videohost_upload_token.partner 3f2a9c0d1e4b5a67
