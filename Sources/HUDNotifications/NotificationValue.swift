import HUDBus

extension BusIter {
    /// A value of the message, as far as the hints need one.
    var value: HintValue? {
        switch type {
        case Code.string, Code.objectPath: return string.map(HintValue.string)
        case Code.variant: return recurse().value
        case Code.array: return bytes.map(HintValue.bytes)
        case Code.structure:
            var fields: [HintValue] = []
            let sub = recurse()
            while sub.type != 0 {
                guard let v = sub.value, fields.count < 16 else { return nil }
                fields.append(v)
                sub.next()
            }
            return .structure(fields)
        default: return integer.map(HintValue.integer)
        }
    }
}
