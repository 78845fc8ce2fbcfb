# A member who changes their e-mail address, against three Join It
# sandboxes of one seed: the one of JOINIT_BASE_URL as it was, one where
# the member's address changed only in case (after_case_url), one where it
# changed to another address (after_new_url). The provider's make test
# (TestAccModules_tests) starts them, makes the changes through the
# sandbox's ChangeEmail and writes terraform.tfvars here: the two URLs, the
# member's address before (old_email) and after each change (case_email,
# new_email), as Join It keeps them, case included.
#
# The downstream group is what the first sync left: the members of "before".

provider "joinit" {}

provider "joinit" {
  alias    = "after_case"
  base_url = var.after_case_url
}

provider "joinit" {
  alias    = "after_new"
  base_url = var.after_new_url
}

run "before" {
  command = plan

  variables {
    current_members = []
  }

  assert {
    condition     = contains(output.members, lower(var.old_email))
    error_message = "the member (${var.old_email}) is not among the ${length(output.members)} members read before the change"
  }
}

# The module compares addresses without case: an address changed only in
# case is the same member, so nothing is planned, and no removal is counted
# (max_removals 0 passes).
run "an_address_changed_only_in_case_changes_nothing" {
  command = plan

  providers = {
    joinit = joinit.after_case
  }

  variables {
    current_members = run.before.members
    max_removals    = 0
  }

  assert {
    condition     = length(output.to_add) == 0 && length(output.to_remove) == 0 && output.members == run.before.members
    error_message = "after ${var.old_email} became ${var.case_email}: to_add ${jsonencode(output.to_add)}, to_remove ${jsonencode(output.to_remove)}; want nothing planned"
  }
  assert {
    condition     = contains([for r in data.joinit_memberships.this.records : r.email], var.case_email) && !contains([for r in data.joinit_memberships.this.records : r.email], var.old_email)
    error_message = "the read does not hold ${var.case_email} in place of ${var.old_email}: the change in case did not reach it"
  }
}

# Another address is another downstream member: the old one out, the new
# one in, in one plan.
run "a_new_address_is_one_removal_and_one_addition" {
  command = plan

  providers = {
    joinit = joinit.after_new
  }

  variables {
    current_members = run.before.members
    max_removals    = 1
  }

  assert {
    condition     = output.to_remove == tolist([lower(var.old_email)]) && output.to_add == tolist([lower(var.new_email)])
    error_message = "after ${var.old_email} became ${var.new_email}: to_remove ${jsonencode(output.to_remove)}, to_add ${jsonencode(output.to_add)}; want the old address out and the new one in"
  }
  assert {
    condition     = contains([for r in data.joinit_memberships.this.records : r.email], var.new_email)
    error_message = "the read does not hold ${var.new_email} as Join It keeps it"
  }
}

# max_removals counts it as one removal: 0 stops the plan.
run "max_removals_counts_the_old_address_as_one_removal" {
  command = plan

  providers = {
    joinit = joinit.after_new
  }

  variables {
    current_members = run.before.members
    max_removals    = 0
  }

  expect_failures = [output.planned]
}
