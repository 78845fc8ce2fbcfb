# Against a Join It API (the project's sandbox in make test, which counts
# its requests: the two syncs make one read), Slack and Google mocked.

mock_provider "slack" {}
mock_provider "googleworkspace" {}

# A mock cannot import: the import blocks need these.
override_resource {
  target = module.slack.slack_usergroup.this
  values = { id = "S0123ABCD" }
}

override_resource {
  target = module.google.googleworkspace_group_members.this
  values = { id = "groups/members@example.org" }
}

variables {
  slack_usergroup_id = "S0123ABCD"
  google_group_email = "members@example.org"
}

run "both_groups_hold_every_active_member" {
  command = plan

  assert {
    condition     = output.slack_members >= 20 && output.google_members == output.slack_members
    error_message = "Slack would hold ${output.slack_members} users and Google ${output.google_members} members (its owner besides): want one Slack user an address read (the lookups mocked) and the same addresses in Google."
  }
}
