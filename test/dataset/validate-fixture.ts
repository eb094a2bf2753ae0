/** A dataset with an error or warning of every kind validate reports. */
export const DATASET =
  'id,question,expected_sequence,expected_label,expected_category,expect,notes\n' +
  'a,How do I pay?,1,,,,\n' +
  'b,how do  I pay?,2,,,,\n' +
  'c,When are you open?,,opening-hours,,,\n' +
  'a,dup id,1,,,,\n' +
  'd,Weather?,,,,fallback,\n' +
  'e,Refund?,7,re:(bad,,,\n' +
  'f,Refund?,,nope,Garden,,\n' +
  'g,When are you open?,,opening-hours,,,\n' +
  'h,Alias?,12,,,,\n';
