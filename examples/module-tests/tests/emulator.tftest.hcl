# Integration test: the real provider against the service's emulator (or a sandbox), configured
# by VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY as in any pipeline. The test framework applies the
# module, checks what the service returned, and destroys everything at the end. Run it alone
# with: terraform test -filter=tests/emulator.tftest.hcl

variables {
  name       = "Module test"
  alerts_url = "https://hooks.example.com/module-test"
}

run "creates_the_webhook_and_the_theme" {
  command = apply

  assert {
    condition     = startswith(output.webhook_id, "webhook_")
    error_message = "The service gave the webhook no webhook_ id."
  }
  assert {
    condition     = length(nonsensitive(output.signature_secret)) > 0
    error_message = "The service gave the webhook no signature secret."
  }
  assert {
    condition     = output.player_id != ""
    error_message = "The service gave the player theme no id."
  }
}
