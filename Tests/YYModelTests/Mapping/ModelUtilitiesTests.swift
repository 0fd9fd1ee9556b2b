import Foundation
import Testing
import YYModel

@Model
final class ModelNode {
    var name: String
    var children: [ModelNode] = []
    var weight: Double?
    @Ignore var scratch: Int = 0

    init(name: String, children: [ModelNode] = [], weight: Double? = nil) {
        self.name = name
        self.children = children
        self.weight = weight
    }
}

/// Copy, equality, hashing and description (YYModel's `yy_modelCopy` and friends).
@Suite struct ModelUtilitiesTests {
    let tree = ModelNode(name: "root", children: [ModelNode(name: "a", weight: 1.5), ModelNode(name: "b")])

    @Test func copyIsDeep() throws {
        let copy = try tree.modelCopy()
        #expect(copy !== tree)
        #expect(copy.children[0] !== tree.children[0])
        #expect(copy.modelIsEqual(tree))
        copy.children[0].name = "changed"
        #expect(tree.children[0].name == "a")
        #expect(!copy.modelIsEqual(tree))
    }

    @Test func equalityAndHashingFollowTheMappedProperties() throws {
        let other = ModelNode(name: "root", children: [ModelNode(name: "a", weight: 1.5), ModelNode(name: "b")])
        other.scratch = 99  // ignored: not part of the model
        #expect(other.modelIsEqual(tree))
        var first = Hasher(), second = Hasher()
        tree.modelHash(into: &first)
        other.modelHash(into: &second)
        #expect(first.finalize() == second.finalize())
        other.children[1].weight = 2
        #expect(!other.modelIsEqual(tree))
    }

    @Test func descriptionIsNestedAndReadable() throws {
        #expect(
            tree.modelDescription == """
                ModelNode {
                  "children": [
                    {
                      "children": [],
                      "name": "a",
                      "weight": 1.5
                    },
                    {
                      "children": [],
                      "name": "b"
                    }
                  ],
                  "name": "root"
                }
                """)
        #expect(try tree.modelJSONValue["children"]?[0]?["weight"] == 1.5)
    }
}
