# Offline: both providers are mocked, on their real schemas (this
# repository's make test installs the OpenStack provider v3.4.0 for it), so
# no API, no token and no Keystone are needed. `make e2e` applies the module
# against a real Keystone.

mock_provider "joinit" {}
mock_provider "openstack" {}

variables {
  group_name   = "members"
  max_removals = 1
}

run "active_addresses_become_the_group" {
  command = plan

  variables {
    previous_members = ["grace@example.org", "left@example.org"]
  }

  override_data {
    target = data.joinit_memberships.all
    values = {
      records = [
        { id = "m1", organization_id = "org-1", email = " Ada@Example.org ", status = 100 },
        { id = "m2", organization_id = "org-1", email = "grace@example.org", status = 100 },
        # The same address, expired: the address stays active by m1.
        { id = "m3", organization_id = "org-1", email = "ada@example.org", status = 300 },
        { id = "m4", organization_id = "org-1", email = "left@example.org", status = 350 },
        { id = "m5", organization_id = "org-1", email = null, status = 100 },
        { id = "m6", organization_id = "org-1", email = "pending@example.org", status = 75 },
      ]
    }
  }

  assert {
    condition     = output.members == tolist(["ada@example.org", "grace@example.org"])
    error_message = "members is ${jsonencode(output.members)}: want the two active addresses, lower-cased and trimmed, each once"
  }
  assert {
    condition     = output.to_add == tolist(["ada@example.org"]) && output.to_remove == tolist(["left@example.org"])
    error_message = "to_add is ${jsonencode(output.to_add)} and to_remove ${jsonencode(output.to_remove)}"
  }
  assert {
    condition     = output.memberships_without_email == tolist(["m5"])
    error_message = "memberships_without_email is ${jsonencode(output.memberships_without_email)}"
  }
  assert {
    condition     = { for k, u in openstack_identity_user_v3.member : k => u.enabled } == { "ada@example.org" = true, "grace@example.org" = true, "left@example.org" = false, "pending@example.org" = false }
    error_message = "users: ${jsonencode({ for k, u in openstack_identity_user_v3.member : k => u.enabled })}: want one per address, enabled only while active, the one who left kept disabled"
  }
  assert {
    condition     = keys(openstack_identity_user_membership_v3.member) == ["ada@example.org", "grace@example.org"]
    error_message = "group memberships: ${jsonencode(keys(openstack_identity_user_membership_v3.member))}"
  }
  assert {
    condition     = openstack_identity_user_v3.member["ada@example.org"].name == "ada@example.org" && openstack_identity_user_v3.member["ada@example.org"].domain_id == "default"
    error_message = "a user is named by its address, in the group's domain"
  }
}

run "too_few_active_members_stop_the_plan" {
  command = plan

  variables {
    min_members = 2
  }

  override_data {
    target = data.joinit_memberships.all
    values = {
      records = [
        { id = "m1", organization_id = "org-1", email = "ada@example.org", status = 100 },
        { id = "m2", organization_id = "org-1", email = "grace@example.org", status = 350 },
      ]
    }
  }

  expect_failures = [openstack_identity_group_v3.this]
}

run "no_active_member_stops_the_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.all
    values = { records = [{ id = "m1", organization_id = "org-1", email = "ada@example.org", status = 350 }] }
  }

  expect_failures = [openstack_identity_group_v3.this]
}

run "too_many_removals_stop_the_plan" {
  command = plan

  variables {
    previous_members = ["ada@example.org", "grace@example.org", "linus@example.org"]
  }

  override_data {
    target = data.joinit_memberships.all
    values = { records = [{ id = "m1", organization_id = "org-1", email = "ada@example.org", status = 100 }] }
  }

  expect_failures = [openstack_identity_group_v3.this]
}

run "a_fraction_rounds_down" {
  command = plan

  # A tenth of the group's two members is no removal at all.
  variables {
    max_removals     = 0.1
    previous_members = ["ada@example.org", "grace@example.org"]
  }

  override_data {
    target = data.joinit_memberships.all
    values = { records = [{ id = "m1", organization_id = "org-1", email = "ada@example.org", status = 100 }] }
  }

  expect_failures = [openstack_identity_group_v3.this]
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.all
    values = {
      records = [
        { id = "m1", organization_id = "org-1", email = "ada@example.org", status = 100 },
        { id = "m2", organization_id = "org-2", email = "grace@example.org", status = 100 },
      ]
    }
  }

  expect_failures = [data.joinit_memberships.all]
}
