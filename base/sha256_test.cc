#include "base/sha256.h"

#include <gtest/gtest.h>

namespace dtrcheck {
namespace {

// The test vectors of FIPS 180-2, appendix B (one block, two blocks) and
// the digest of no input.
TEST(Sha256, GivesTheStandardsDigests) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, DigestsTheConcatenationOfItsUpdates) {
  const std::string text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  Sha256 pieces;
  for (size_t i = 0; i < text.size(); i += 7) pieces.Update(text.substr(i, 7));
  EXPECT_EQ(pieces.HexDigest(), Sha256Hex(text));
}

TEST(Sha256, ACopyDigestsOnFromWhereItsOriginalWas) {
  Sha256 original;
  original.Update("ab");
  Sha256 copy(original);
  original.Update("c");
  copy.Update("cd");
  EXPECT_EQ(original.HexDigest(), Sha256Hex("abc"));
  EXPECT_EQ(copy.HexDigest(), Sha256Hex("abcd"));
}

}  // namespace
}  // namespace dtrcheck
