# One organization's active members in a Slack user group and in a Google
# group, in one configuration: two module calls, one read of Join It. Both
# modules call member-sync with the same selection (status "active", the
# same fields), and the provider shares identical reads within a run.
#
# Join It: JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
# Slack: SLACK_TOKEN (the slack-usergroup module's page lists its scopes).
# Google: GOOGLEWORKSPACE_CREDENTIALS, GOOGLEWORKSPACE_CUSTOMER_ID and
# GOOGLEWORKSPACE_IMPERSONATED_USER_EMAIL (the google-group module's page
# says how to get them).

module "slack" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/slack-usergroup?ref=v0.1.0"

  usergroup_id    = var.slack_usergroup_id
  min_members     = 20
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

module "google" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/google-group?ref=v0.1.0"

  group_email     = var.google_group_email
  keep_members    = { "it-admin@example.org" = "OWNER" }
  min_members     = 20
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Adopt both groups once; later plans skip these.
import {
  to = module.slack.slack_usergroup.this
  id = var.slack_usergroup_id
}

import {
  to = module.google.googleworkspace_group_members.this
  id = "groups/${var.google_group_email}"
}
