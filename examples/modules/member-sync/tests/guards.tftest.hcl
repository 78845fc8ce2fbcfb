# Offline: the provider is mocked, so no API and no token are needed. Each
# run gives the read's records with override_data and the downstream
# group's members as current_members.

mock_provider "joinit" {}

variables {
  current_members = ["ana@example.org", "ben@example.org", "cy@example.org", "dee@example.org"]
  min_members     = 2
  max_removals    = 1
}

run "a_normal_change_passes" {
  command = plan

  # Addresses match without regard to case or spaces; a removal keeps the
  # downstream spelling.
  variables {
    current_members = ["ANA@example.org ", "ben@example.org", "cy@example.org", "Dee@Example.org"]
  }

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "Ana@Example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = "org-1" },
        { email = "cy@example.org", organization_id = "org-1" },
        { email = "eve@example.org", organization_id = "org-1" },
        { email = null, organization_id = "org-1" },
        { email = " ", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_add == tolist(["eve@example.org"])
    error_message = "to_add is ${jsonencode(output.to_add)}, want [\"eve@example.org\"]"
  }
  assert {
    condition     = output.to_remove == tolist(["Dee@Example.org"])
    error_message = "to_remove is ${jsonencode(output.to_remove)}, want [\"Dee@Example.org\"]"
  }
}

run "too_few_members_stop_the_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.desired
    values = { records = [{ email = "ana@example.org", organization_id = "org-1" }] }
  }

  expect_failures = [data.joinit_memberships.desired]
}

run "too_many_removals_stop_the_plan" {
  command = plan

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "ana@example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.to_remove]
}

run "a_fraction_of_the_current_members" {
  command = plan

  # A quarter of four current members is one removal: two is too many.
  variables {
    max_removals = 0.25
  }

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "ana@example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [output.to_remove]
}

run "a_fraction_allows_its_share" {
  command = plan

  # Half of four current members is two removals: allowed.
  variables {
    max_removals = 0.5
  }

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "ana@example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = output.to_remove == tolist(["cy@example.org", "dee@example.org"])
    error_message = "to_remove is ${jsonencode(output.to_remove)}"
  }
}

run "the_organization_and_records_without_one_pass" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "ana@example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = null },
        { email = "cy@example.org", organization_id = "org-1" },
        { email = "dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0
    error_message = "to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}"
  }
}

run "another_organization_stops_the_plan" {
  command = plan

  variables {
    organization_id = "org-1"
  }

  override_data {
    target = data.joinit_memberships.desired
    values = {
      records = [
        { email = "ana@example.org", organization_id = "org-1" },
        { email = "ben@example.org", organization_id = "org-2" },
        { email = "cy@example.org", organization_id = null },
        { email = "dee@example.org", organization_id = "org-1" },
      ]
    }
  }

  expect_failures = [data.joinit_memberships.desired]
}
