# Offline: Join It and Slack both mocked, Slack on the schema of
# pablovarela/slack 1.2.2, so no API, no token and no workspace are needed.
# Each run plans: the group now comes from the data source's override, the
# Join It read from member-sync's, each user found from its lookup's. Only
# this module's mapping is tested here: the addresses' case, blanks and
# duplicates, and the guards, are member-sync's tests (guard-tests/ shows
# each guard stopping this module's plan).

mock_provider "joinit" {}
mock_provider "slack" {}

variables {
  usergroup_id = "S0123ABCD"
  max_removals = 1
}

# The group now: Ada, and someone Join It no longer has.
override_data {
  target = data.slack_usergroup.this
  values = { id = "S0123ABCD", handle = "members", description = "Active members", channels = ["C0123"], users = ["U0ADA", "U0GONE"] }
}

# The users found, by the membership each lookup is keyed by.
override_data {
  target = data.slack_user.member["m1"]
  values = { id = "U0ADA" }
}
override_data {
  target = data.slack_user.member["m3"]
  values = { id = "U0GRACE" }
}

run "the_group_holds_the_users_found_for_the_addresses_read" {
  command = plan

  # Ada twice (another case, another membership), Grace once.
  override_data {
    target = module.sync.data.joinit_memberships.this
    values = {
      records = [
        { id = "m1", email = "ada@x.org", organization_id = "org-1" },
        { id = "m2", email = " ADA@x.org", organization_id = "org-1" },
        { id = "m3", email = "grace@x.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = { for k, u in data.slack_user.member : k => u.email } == { m1 = "ada@x.org", m3 = "grace@x.org" }
    error_message = "looked up ${jsonencode({ for k, u in data.slack_user.member : k => u.email })}: want each address once, as member-sync gives it, keyed by a membership id"
  }
  assert {
    condition     = slack_usergroup.this.users == toset(["U0ADA", "U0GRACE"]) && output.to_add == tolist(["U0GRACE"]) && output.to_remove == tolist(["U0GONE"])
    error_message = "users ${jsonencode(slack_usergroup.this.users)}, to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}: want the ids found, Grace added, the one Join It does not hold removed"
  }
  assert {
    # The data source's name is not computed, so a mock leaves it null
    # whatever override_data gives: the test sees it copied, not its value.
    condition     = slack_usergroup.this.name == data.slack_usergroup.this.name && slack_usergroup.this.handle == "members" && slack_usergroup.this.description == "Active members" && slack_usergroup.this.channels == toset(["C0123"])
    error_message = "the group's settings would change: every update sends name, handle, description and channels, so each is copied as Slack has it"
  }
  assert {
    condition     = length(output.not_found) == 0
    error_message = "not_found is ${jsonencode(output.not_found)}"
  }
}
